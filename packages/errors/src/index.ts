export { AuthError, type AuthErrorOptions, weakPasswordError } from "./auth-error.js";
export { type ErrorCode, errorCodes, isErrorCode } from "./codes.js";
