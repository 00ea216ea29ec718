import { AuthError } from "@auth/errors";
import type { Logger } from "@auth/runtime";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { sendError } from "./envelope.js";

/** A client error raised by express or body-parser (bad URL encoding, oversized body, ...). */
function isClientHttpError(error: unknown): boolean {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

function toAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (isClientHttpError(error)) return new AuthError("request.validation.failed", { cause: error });
  return new AuthError("internal.error", { cause: error });
}

/** Every error leaves as the envelope with its code: never a stack trace or an HTML page. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (thrown, request, response, _next) => {
    const error = toAuthError(thrown);
    if (error.code === "internal.error") {
      logger.error({ err: thrown, path: request.path }, "request failed");
    } else if (error.code === "service.unavailable") {
      logger.warn({ path: request.path, detail: error.message }, "backend unavailable");
    } else {
      logger.debug({ path: request.path, code: error.code, detail: error.message }, "request refused");
    }
    if (response.headersSent) return;
    sendError(response, error);
  };
}

export const routeNotFound: RequestHandler = (_request, _response, next) => {
  next(new AuthError("request.route.notfound"));
};

/** Any other method than the route's: request.method.notallowed, with the one it takes as `Allow`. */
export const methodNotAllowed =
  (allowed: "POST" | "GET"): RequestHandler =>
  (_request, response, next) => {
    // express answers HEAD with the GET route (RFC 9110, 9.3.2).
    response.setHeader("Allow", allowed === "GET" ? "GET, HEAD" : allowed);
    next(new AuthError("request.method.notallowed"));
  };
