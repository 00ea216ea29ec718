import { z } from "zod";
import { securityEvent } from "../security-events.js";
import { sessionEndpoint } from "./endpoint.js";

/** spec 4.9: invalidates the token, whatever the session's state. */
export const logout = sessionEndpoint(
  "logout",
  z.object({}),
  async (context) => {
    await context.backends.session.revokeSession({ sessionToken: context.token });
    securityEvent(context, "session.revoked", {
      userId: context.session.userId,
      sessionId: context.session.sessionId,
    });
    return {};
  },
  { idempotent: true },
);
