import { AuthError } from "@auth/errors";
import { type AsyncService, implement, parseRequest } from "@auth/grpc-kit";
import { type Session, SessionServiceService, SessionState, TokenStatus } from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import { z } from "zod";
import { sessionAccess } from "./access.js";
import type { LoginFailures } from "./store/login-failures.js";
import type { SessionRecord, SessionStore } from "./store/session-store.js";

const state = z
  .enum(SessionState)
  .refine((s) => s !== SessionState.UNSPECIFIED && s !== SessionState.UNRECOGNIZED, {
    message: "must be a session state",
  });
const id = z.string().min(1, "is required").max(200);
const token = z.string().max(512);
const lifetime = z
  .number()
  .int()
  .min(1)
  .max(30 * 24 * 3600)
  .optional();

const toSession = (record: SessionRecord): Session => ({
  sessionId: record.sessionId,
  companyId: record.companyId,
  userId: record.userId,
  state: record.state,
  loginId: record.loginId,
  profileMnemocode: record.profileMnemocode,
  passwordChangeRequired: record.passwordChangeRequired,
  createdAt: new Date(record.createdAt),
  expiresAt: new Date(record.expiresAt),
});

/** The requests' schemas, built once. */
const createSessionRequest = z.object({
  companyId: id,
  userId: id,
  state,
  loginId: z.string().max(512),
  profileMnemocode: z.string().optional(),
  passwordChangeRequired: z.boolean(),
  lifetimeSeconds: lifetime,
  refuseAtLoginFailures: z.number().int().nonnegative().optional(),
});
const introspectSessionRequest = z.object({ sessionToken: token });
const advanceSessionRequest = z.object({
  sessionToken: token,
  fromState: state,
  toState: state,
  profileMnemocode: z.string().optional(),
  passwordChangeRequired: z.boolean().optional(),
  lifetimeSeconds: lifetime,
});
const revokeSessionRequest = z.object({ sessionToken: token });
const revokeUserSessionsRequest = z.object({ companyId: id, userId: id });
const listUserSessionsRequest = z.object({ companyId: id, userId: id });
const getLoginFailuresRequest = z.object({ companyId: id, loginId: z.string().max(512) });
const recordLoginFailureRequest = z.object({
  companyId: id,
  loginId: z.string().max(512),
  windowSeconds: z.number().int().positive(),
});
const resetLoginFailuresRequest = z.object({ companyId: id, loginId: z.string().max(512) });

export function sessionService(
  sessions: SessionStore,
  failures: LoginFailures,
  adminToken: string,
  logger: Logger,
) {
  const methods: AsyncService<typeof SessionServiceService> = {
    async createSession(request) {
      const { refuseAtLoginFailures, ...input } = parseRequest(createSessionRequest, request);
      let loginFailures = 0;
      if (refuseAtLoginFailures !== undefined) {
        const counted = await failures.read(input.companyId, input.loginId);
        if (counted.failures >= refuseAtLoginFailures) {
          throw new AuthError("auth.restricted", {
            retryAfterSeconds: counted.retryAfterSeconds,
            detail: "login ID locked out",
          });
        }
        loginFailures = counted.failures;
      }
      const created = await sessions.create(input);
      return { sessionToken: created.token, session: toSession(created.session), loginFailures };
    },
    async introspectSession(request) {
      const result = await sessions.introspect(parseRequest(introspectSessionRequest, request).sessionToken);
      switch (result.status) {
        case "active":
          return { status: TokenStatus.ACTIVE, session: toSession(result.session) };
        case "expired":
          return { status: TokenStatus.EXPIRED };
        case "invalid":
          return { status: TokenStatus.INVALID };
      }
    },
    async advanceSession(request) {
      const input = parseRequest(advanceSessionRequest, request);
      const { sessionToken, fromState, toState, ...changes } = input;
      const advanced = await sessions.advance(sessionToken, fromState, toState, changes);
      return { sessionToken: advanced.token, session: toSession(advanced.session) };
    },
    async revokeSession(request) {
      return {
        revoked: await sessions.revoke(parseRequest(revokeSessionRequest, request).sessionToken),
      };
    },
    async revokeUserSessions(request) {
      const input = parseRequest(revokeUserSessionsRequest, request);
      return { revoked: await sessions.revokeUser(input.companyId, input.userId) };
    },
    async listUserSessions(request) {
      const input = parseRequest(listUserSessionsRequest, request);
      return { sessions: (await sessions.listUser(input.companyId, input.userId)).map(toSession) };
    },
    async getLoginFailures(request) {
      const input = parseRequest(getLoginFailuresRequest, request);
      return failures.read(input.companyId, input.loginId);
    },
    async recordLoginFailure(request) {
      const input = parseRequest(recordLoginFailureRequest, request);
      return failures.record(input.companyId, input.loginId, input.windowSeconds);
    },
    async resetLoginFailures(request) {
      const input = parseRequest(resetLoginFailuresRequest, request);
      await failures.reset(input.companyId, input.loginId);
      return {};
    },
  };
  return {
    name: "auth.session.v1.SessionService",
    definition: SessionServiceService,
    implementation: implement(SessionServiceService, methods, {
      logger,
      access: sessionAccess,
      adminToken,
    }),
  };
}
