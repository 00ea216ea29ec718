export { AuthError, type AuthErrorOptions, weakPasswordError, weakPasswordStatus } from "./auth-error.js";
export { type ErrorCode, errorCodes, isErrorCode } from "./codes.js";
