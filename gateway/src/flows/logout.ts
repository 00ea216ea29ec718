import { z } from "zod";
import { sessionEndpoint } from "./endpoint.js";

/** spec 4.9: invalidates the token, whatever the session's state. */
export const logout = sessionEndpoint("logout", z.object({}), async (context) => {
  await context.backends.session.revokeSession({ sessionToken: context.token });
  return {};
});
