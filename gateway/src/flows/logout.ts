import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { type SuccessFields, success } from "../endpoint/responses.js";
import { revokedBefore } from "../steps/ended-by-itself.js";

const body = z.object({});

const responses = success({});

/** spec 4.9: invalidates the token, whatever the session's state. */
export const logout = defineEndpoint({
  operation: "logout",
  summary: "End the session",
  body,
  responses,
  examples: { request: {}, answers: [{}] },
  steps: [],
  errors: [],
  whileSuspended: "serve",
  idempotent: true,
  // Sent again after its answer was lost: the token is gone because this request revoked it.
  endedByItself: async (ended) => ((await revokedBefore(ended)) ? {} : undefined),
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  await context.backends.session.revokeSession({ sessionToken: context.token, retryKey: context.retryKey });
  return {};
}
