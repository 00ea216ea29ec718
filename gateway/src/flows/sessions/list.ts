import { z } from "zod";
import { authentication, authenticationOf } from "../../endpoint/authentication.js";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";

const body = z.object({});

const timestamp = (description: string) => z.string().describe(`${description} (RFC 3339, UTC)`);

const responses = success({
  sessions: z
    .array(
      z.strictObject({
        session_id: z.string().describe("Names the session to auth/sessions/end; not a token"),
        user_agent: z.string().describe("The client's User-Agent when the session started, as it said"),
        client_address: z.string().describe("The client's address when the session started"),
        created_at: timestamp("When the session started"),
        last_seen_at: timestamp("The last recorded use of the session, to the minute"),
        current: z.boolean().describe("The session of the token that asked"),
        authentication,
      }),
    )
    .describe("The user's active authorized sessions, oldest first"),
});

const isoOf = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

/**
 * Beyond the spec (docs/api-contract.md, "Session management"): the active sessions of the
 * signed-in user, so that the user can recognise and end the ones that are not theirs.
 */
export const sessionsList = defineEndpoint({
  operation: "sessions",
  summary: "List the user's sessions",
  body,
  responses,
  examples: {
    request: {},
    answers: [
      {
        sessions: [
          {
            session_id: "01JD6X4M2Q8F0RZ3TQ7B9V5K1N",
            user_agent: "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
            client_address: "198.51.100.23",
            created_at: "2026-11-24T07:02:11.000Z",
            last_seen_at: "2026-11-24T07:40:00.000Z",
            current: true,
            authentication: {
              level: 2,
              amr: ["pwd", "otp", "mfa"],
              factors: [
                { kind: "password", amr: "pwd", authenticated_at: "2026-11-24T07:01:40.000Z" },
                { kind: "app_code", amr: "otp", authenticated_at: "2026-11-24T07:02:11.000Z" },
              ],
              authenticated_at: "2026-11-24T07:02:11.000Z",
            },
          },
        ],
      },
    ],
  },
  steps: [],
  errors: [],
  whileSuspended: "serve",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const listed = await context.backends.session.listOwnSessions({ sessionToken: context.token });
  return {
    sessions: listed.sessions.map((session) => ({
      session_id: session.sessionId,
      user_agent: session.userAgent,
      client_address: session.clientAddress,
      created_at: isoOf(session.createdAt),
      last_seen_at: isoOf(session.lastSeenAt),
      current: session.sessionId === listed.currentSessionId,
      authentication: authenticationOf(session.authentication),
    })),
  };
}
