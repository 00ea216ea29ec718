import type { OwnEvent } from "@auth/proto/audit";
import { ActorKind, Factor, Outcome } from "@auth/proto/events";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { type SuccessFields, success } from "../endpoint/responses.js";

const body = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe("How many events, newest first: 20 unless given"),
});

const outcomeNames = { [Outcome.SUCCEEDED]: "succeeded", [Outcome.FAILED]: "failed" } as const;

const actorNames = {
  [ActorKind.USER]: "user",
  [ActorKind.OPERATOR]: "operator",
  [ActorKind.SYSTEM]: "system",
} as const;

const factorNames = {
  [Factor.PASSWORD]: "password",
  [Factor.SMS_CODE]: "sms_code",
  [Factor.APP_CODE]: "app_code",
  [Factor.BACKUP_CODE]: "backup_code",
  [Factor.PASSKEY]: "passkey",
  [Factor.OAUTH]: "oauth",
  [Factor.RECOVERY_QUESTION]: "recovery_question",
  [Factor.EMAIL_LINK]: "email_link",
} as const;

const enumOf = <T extends Record<string, string>>(names: T) =>
  z.enum(Object.values(names) as [T[keyof T], ...T[keyof T][]]);

const ownEvent = z.strictObject({
  id: z.string().describe("The event's id (a UUIDv7), as in the company's audit trail and webhooks"),
  type: z
    .string()
    .describe(
      "auth.login.succeeded, auth.login.failed, auth.second_factor.failed, auth.account.locked, auth.password.changed, auth.contact.changed, auth.factor.enrolled, auth.factor.removed, auth.recovery.started, auth.recovery.finished, auth.session.revoked, admin.factor.changed, admin.user.changed or admin.session.revoked; more may be added",
    ),
  time: z.string().describe("When the change was committed (RFC 3339, UTC)"),
  outcome: enumOf(outcomeNames)
    .nullable()
    .describe("failed: a secret was wrong, or a budget refused the check; null when the event has none"),
  client_address: z
    .string()
    .nullable()
    .describe("The client's address as the gateway saw it; null for an operator's or the suite's change"),
  factor: enumOf(factorNames)
    .nullable()
    .describe(
      "The factor the event is about (a login's last, an enrolment's, a lock-out's; sms_code or email_link for a changed phone or e-mail); null when none",
    ),
  actor: enumOf(actorNames)
    .nullable()
    .describe("Who made the change: the user, an operator (never named) or the suite; null when not known"),
  current_session: z.boolean().describe("The event is of the session of the token that asked"),
});

const responses = success({
  events: z.array(ownEvent).describe("The user's recent security events, newest first"),
});

type Listed = z.output<typeof ownEvent>;

/** A name for a value of the contract's enums; null for one added after this gateway was built. */
const nameOf = <T extends Record<string, string>>(names: T, value: string): T[keyof T] | null =>
  (names[value] as T[keyof T] | undefined) ?? null;

/** One event as the API shows it. */
function listedEvent(event: OwnEvent & { time: Date }): Listed {
  return {
    id: event.id,
    type: event.type,
    time: event.time.toISOString(),
    outcome: nameOf(outcomeNames, event.outcome),
    client_address: event.clientAddress || null,
    factor: nameOf(factorNames, event.factor),
    actor: nameOf(actorNames, event.actor),
    current_session: event.currentSession,
  };
}

/**
 * Beyond the spec (docs/api-contract.md, "The user's security events"): the signed-in user's own
 * recent security events, from the audit service, which asks the session service whose the token
 * is (docs/decisions.md, "Audit trail and webhooks").
 */
export const events = defineEndpoint({
  operation: "events",
  summary: "List the user's recent security events",
  body,
  responses,
  examples: {
    request: { limit: 20 },
    answers: [
      {
        events: [
          {
            id: "019ab7c2-5d41-7e3a-9f10-4c2d8e6b1a07",
            type: "auth.login.succeeded",
            time: "2026-11-24T07:02:11.000Z",
            outcome: "succeeded",
            client_address: "198.51.100.23",
            factor: "app_code",
            actor: "user",
            current_session: true,
          },
          {
            id: "019ab7c1-f2e0-7b44-8c3d-2a9e5f7b6c10",
            type: "auth.login.failed",
            time: "2026-11-24T07:01:02.000Z",
            outcome: "failed",
            client_address: "203.0.113.9",
            factor: "password",
            actor: "user",
            current_session: false,
          },
          {
            id: "019ab3a0-7c18-7d21-a5e4-81f0c3d92b55",
            type: "admin.factor.changed",
            time: "2026-11-23T16:40:00.000Z",
            outcome: "succeeded",
            client_address: null,
            factor: null,
            actor: "operator",
            current_session: false,
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
  const listed = await context.backends.audit.listOwnEvents({
    sessionToken: context.token,
    limit: context.body.limit ?? 0,
  });
  const timed = listed.events.filter((event): event is OwnEvent & { time: Date } => event.time !== undefined);
  return { events: timed.map(listedEvent) };
}
