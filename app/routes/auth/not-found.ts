// A missing endpoint under /auth answers as one under /api does.
export { action, loader } from '~/routes/api/not-found'
