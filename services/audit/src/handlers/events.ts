import { AuthError } from "@auth/errors";
import { eventCatalogue } from "@auth/events";
import {
  type AsyncService,
  eventOriginOf,
  messageSchema,
  parseRequest,
  type ServiceClient,
} from "@auth/grpc-kit";
import type {
  AuditServiceService,
  GetRetentionRequest,
  ListEventsRequest,
  ListOwnEventsRequest,
  SetRetentionRequest,
} from "@auth/proto/audit";
import {
  type AuthorizedSession,
  type TokenIntrospectionServiceService,
  TokenStatus,
} from "@auth/proto/introspection";
import { z } from "zod";
import { ownEventOf } from "../own-events.js";
import type { AuditStore } from "../store/audit-store.js";

export interface EventHandlersDependencies {
  auditStore: AuditStore;
  /** The session service's token introspection: whose a token is, for the user's own events. */
  introspection: ServiceClient<typeof TokenIntrospectionServiceService>;
}

const id = z.uuid("must be a UUID");
const eventType = z
  .string()
  .refine((type) => Object.hasOwn(eventCatalogue, type), "must be an event type of the catalogue");

const listEventsRequest = messageSchema<ListEventsRequest>()(
  z.object({
    companyId: id,
    userId: id.optional(),
    types: z.array(eventType).max(100),
    from: z.date().optional(),
    to: z.date().optional(),
    pageSize: z.number().int().min(0).max(1_000),
    pageToken: z.string().max(200),
  }),
);
const listOwnEventsRequest = messageSchema<ListOwnEventsRequest>()(
  z.object({ sessionToken: z.string().max(512), limit: z.number().int().min(0).max(100) }),
);
const getRetentionRequest = messageSchema<GetRetentionRequest>()(z.object({ companyId: id }));
const setRetentionRequest = messageSchema<SetRetentionRequest>()(
  z.object({
    companyId: id,
    days: z.number().int().min(1, "must be 1 to 3650").max(3_650, "must be 1 to 3650"),
  }),
);

/** The authorized session a token stands for; the error the caller gets for any other token. */
async function sessionOf(
  introspection: EventHandlersDependencies["introspection"],
  sessionToken: string,
): Promise<AuthorizedSession> {
  const { status, session } = await introspection.introspectToken({ sessionToken });
  switch (status) {
    case TokenStatus.ACTIVE:
      if (session) return session;
      break;
    case TokenStatus.INVALID:
      throw new AuthError("auth.token.invalid");
    case TokenStatus.EXPIRED:
      throw new AuthError("auth.token.expired");
    case TokenStatus.NOT_AUTHORIZED:
      throw new AuthError("auth.session.invalid");
  }
  throw new Error(`token introspection answered ${status}${session ? "" : " without a session"}`);
}

/**
 * The events' queries and retention (docs/decisions.md, "Audit trail and webhooks"): the
 * operators' ListEvents, GetRetention and SetRetention, and the user's own ListOwnEvents.
 */
export function eventHandlers(
  dependencies: EventHandlersDependencies,
): Pick<
  AsyncService<typeof AuditServiceService>,
  "listEvents" | "listOwnEvents" | "getRetention" | "setRetention"
> {
  const { auditStore, introspection } = dependencies;
  return {
    async listEvents(request) {
      const input = parseRequest(listEventsRequest, request);
      return auditStore.listEvents({ ...input, pageSize: input.pageSize || 100 });
    },

    async listOwnEvents(request) {
      const input = parseRequest(listOwnEventsRequest, request);
      const session = await sessionOf(introspection, input.sessionToken);
      const events = await auditStore.ownEvents(session.companyId, session.userId, input.limit || 20);
      return { events: events.map((event) => ownEventOf(event, session.sessionId)) };
    },

    async getRetention(request) {
      const input = parseRequest(getRetentionRequest, request);
      return { days: await auditStore.retentionDays(input.companyId) };
    },

    async setRetention(request, context) {
      const input = parseRequest(setRetentionRequest, request);
      return { days: await auditStore.setRetentionDays(input.companyId, input.days, eventOriginOf(context)) };
    },
  };
}
