import type { ShouldRevalidateFunction } from 'react-router'

/** React Router reloads nothing after a 4xx, but a 404 from a narrative's action means it is gone, which the page must show. */
export const revalidateWhenGone: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 404 || defaultShouldRevalidate
