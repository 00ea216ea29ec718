export { type OAuthButton, pageRoutes } from "../shared/page-config.js";
export { type LoginPageOptions, type RunningLoginPage, serveLoginPage } from "./serve.js";
