import { apiError } from '~/server/http/api.server'

// A JSON 404, where a page path would be sent to /.
export const loader = () => apiError(404, 'Not found')
export const action = loader
