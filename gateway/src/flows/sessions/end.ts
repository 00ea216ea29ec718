import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";

const body = z
  .object({
    session_id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("One session of the user, as auth/sessions names it (the caller's own too)"),
    others: z.literal(true).optional().describe("Every session of the user but the caller's"),
  })
  .refine((given) => (given.session_id === undefined) !== (given.others === undefined), {
    message: "exactly one of session_id and others",
  });

const responses = success({ ended: z.number().int().describe("How many sessions ended") });

/**
 * Beyond the spec (docs/api-contract.md, "Session management"): the signed-in user ends one of
 * their sessions, or every one but this; a session id that names no active session of the user is
 * auth.session.notfound, whoever's session it is.
 */
export const sessionsEnd = defineEndpoint({
  operation: "sessions/end",
  summary: "End one of the user's sessions, or all others",
  body,
  responses,
  examples: { request: { others: true }, answers: [{ ended: 2 }] },
  steps: [],
  errors: ["auth.session.notfound"],
  whileSuspended: "serve",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const { session_id: sessionId, others } = context.body;
  const { ended } = await context.backends.session.endOwnSessions({
    sessionToken: context.token,
    ...(others ? { others } : { sessionId }),
  });
  return { ended };
}
