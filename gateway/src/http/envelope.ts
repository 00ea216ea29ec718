import type { AuthError } from "@auth/errors";
import type { Response } from "express";
import type { ResponseFields } from "../endpoint/context.js";
import { errorMessage } from "./error-message.js";
import { requestLanguage } from "./request-language.js";

export function sendSuccess(response: Response, fields: ResponseFields): void {
  response.status(200).json({ status: "success", ...fields });
}

/** The error envelope, its message in the request's language (an error before the company is known: without its default or texts). */
export function sendError(response: Response, error: AuthError): void {
  response.locals.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined)
    response.setHeader("Retry-After", String(error.retryAfterSeconds));
  const language = requestLanguage(response.req, response);
  response.status(error.httpStatus).json({
    status: "error",
    error_code: error.code,
    error_message: errorMessage(error.code, language, response.locals.company),
    ...error.fields,
  });
}
