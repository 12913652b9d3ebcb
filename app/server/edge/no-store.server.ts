import type { MiddlewareFunction } from 'react-router'
import { getRequestContext } from '~/server/platform/request-context.server'

/**
 * Marks the answer to this request as private: it carries a signed-in person's data or a new secret.
 * Called where that happens (a session resolved to its user, a session created), so no route can
 * forget it.
 */
export function markAnswerPrivate() {
  const context = getRequestContext()
  if (context) context.privateAnswer = true
}

/**
 * Root middleware, so it wraps pages, their .data requests and resource routes (the token API, Word
 * downloads) alike: a private answer is never stored, neither by a shared cache nor on the person's
 * disk. Public pages and static assets keep their caching.
 */
export const noStoreForPrivateAnswers: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next()
  if (!getRequestContext()?.privateAnswer) return response
  const current = response.headers.get('Cache-Control') ?? ''
  if (/\bno-store\b/.test(current)) return response
  // no-transform (event streams) still holds; whatever allowed storing does not.
  const value = /\bno-transform\b/.test(current) ? 'no-store, no-transform' : 'no-store'
  try {
    response.headers.set('Cache-Control', value)
    return response
  } catch {
    // A Response with immutable headers (Response.redirect, a fetched one): copy it.
    const copy = new Response(response.body, response)
    copy.headers.set('Cache-Control', value)
    return copy
  }
}
