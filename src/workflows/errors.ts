/**
 * Errors of the workflow API. n8n answers every error with `{message}` and a status (not Meilisearch's error
 * object), so these carry exactly that; the store throws them too, as Payload's operations throw errors with a
 * status, and the routes turn them into responses.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/** n8n's answer for a workflow, tag or project id that names nothing (handlers' `{message: 'Not Found'}`). */
export const notFound = () => new ApiError(404, 'Not Found')

/** n8n's answer to a garbled, forged or foreign cursor (global.middleware.ts `validCursor`). */
export const invalidCursor = () => new ApiError(400, 'An invalid cursor was provided')
