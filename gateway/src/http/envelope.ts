import type { AuthError } from "@auth/errors";
import type { Response } from "express";
import type { ResponseFields } from "../endpoint/context.js";

export function sendSuccess(response: Response, fields: ResponseFields): void {
  response.status(200).json({ status: "success", ...fields });
}

export function sendError(response: Response, error: AuthError): void {
  response.locals.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined)
    response.setHeader("Retry-After", String(error.retryAfterSeconds));
  response.status(error.httpStatus).json({ status: "error", error_code: error.code, ...error.fields });
}
