export { action, loader } from '~/routes/api/not-found'
