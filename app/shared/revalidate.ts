import type { ShouldRevalidateFunction } from 'react-router'

/**
 * React Router reloads nothing after a 4xx; a 404 from a narrative's action means it is gone, which the
 * page must show. For the pages of narratives.
 */
export const revalidateWhenGone: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 404 || defaultShouldRevalidate
