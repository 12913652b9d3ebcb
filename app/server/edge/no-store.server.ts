import type { MiddlewareFunction } from 'react-router'
import { getRequestContext } from '~/server/platform/request-context.server'

/** Called where a session is resolved or created, not by routes, so no route can forget it. */
export function markAnswerPrivate() {
  const context = getRequestContext()
  if (context) context.privateAnswer = true
}

/** Root middleware, so it covers pages, their .data requests and resource routes alike (decision 013). */
export const noStoreForPrivateAnswers: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next()
  if (!getRequestContext()?.privateAnswer) return response
  const current = response.headers.get('Cache-Control') ?? ''
  if (/\bno-store\b/.test(current)) return response
  const value = /\bno-transform\b/.test(current) ? 'no-store, no-transform' : 'no-store'
  try {
    response.headers.set('Cache-Control', value)
    return response
  } catch {
    // Response.redirect and fetched responses have immutable headers.
    const copy = new Response(response.body, response)
    copy.headers.set('Cache-Control', value)
    return copy
  }
}
