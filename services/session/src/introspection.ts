import { type AsyncService, implement, messageSchema, parseRequest } from "@auth/grpc-kit";
import {
  type IntrospectTokenRequest,
  TokenIntrospectionServiceService,
  TokenStatus,
} from "@auth/proto/introspection";
import { SessionState } from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import { z } from "zod";
import { introspectionAccess } from "./access.js";
import { authenticationOf } from "./authentication.js";
import { optionalDate } from "./server.js";
import { idleEndOf, type SessionStore } from "./store/session-store.js";

const introspectTokenRequest = messageSchema<IntrospectTokenRequest>()(
  z.object({ sessionToken: z.string().max(512) }),
);

/**
 * What a session token stands for, as the company's other products may know it: active only once
 * the session is authorized, and then only whose it is and how it was authenticated
 * (docs/decisions.md, "Token introspection"). `adminTokenSha256`: the SHA-256 (hex) of the admin
 * token operators present.
 */
export function introspectionService(sessions: SessionStore, adminTokenSha256: string, logger: Logger) {
  const methods: AsyncService<typeof TokenIntrospectionServiceService> = {
    async introspectToken(request) {
      const result = await sessions.introspect(parseRequest(introspectTokenRequest, request).sessionToken);
      switch (result.status) {
        case "active": {
          const { session } = result;
          if (session.state !== SessionState.AUTHORIZED) return { status: TokenStatus.NOT_AUTHORIZED };
          return {
            status: TokenStatus.ACTIVE,
            session: {
              sessionId: session.sessionId,
              companyId: session.companyId,
              userId: session.userId,
              profileMnemocode: session.profileMnemocode ?? "",
              createdAt: new Date(session.createdAt),
              expiresAt: new Date(session.expiresAt),
              absoluteExpiresAt: optionalDate(session.absoluteExpiresAt),
              idleExpiresAt: optionalDate(idleEndOf(session)),
              authentication: authenticationOf(session.factors ?? []),
            },
          };
        }
        case "expired":
          return { status: TokenStatus.EXPIRED };
        case "invalid":
          return { status: TokenStatus.INVALID };
      }
    },
  };
  return {
    name: "auth.introspection.v1.TokenIntrospectionService",
    definition: TokenIntrospectionServiceService,
    implementation: implement(TokenIntrospectionServiceService, methods, {
      logger,
      access: introspectionAccess,
      adminTokenSha256,
    }),
  };
}
