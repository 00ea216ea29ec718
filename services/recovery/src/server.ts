import { type MailSender, sendMail } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import {
  type AsyncService,
  eventOriginOf,
  implement,
  messageSchema,
  parseRequest,
  type ServiceClient,
} from "@auth/grpc-kit";
import type { IdentityServiceService } from "@auth/proto/identity";
import {
  RecoveryServiceService,
  type RedeemRecoveryLinkRequest,
  type RevokeRecoveryLinksRequest,
  type SendRecoveryLinkRequest,
} from "@auth/proto/recovery";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { recoveryAccess } from "./access.js";
import { linkLifetimeMs, recoveryLink, recoveryMail } from "./links.js";
import type { RecoveryStore } from "./store/recovery-store.js";

const id = z.string().min(1, "is required").max(200);
export interface MailDelivery {
  /** The owner of users' e-mails and companies' mail settings, asked on every send. */
  identity: Pick<ServiceClient<typeof IdentityServiceService>, "getMailDelivery">;
  /** The deployment's sender, for companies without their own SMTP server. */
  fallback: MailSender;
  timeoutMs: number;
}

/** The requests' schemas, built once. */
const sendRecoveryLinkRequest = messageSchema<SendRecoveryLinkRequest>()(
  z.object({
    companyId: id,
    userId: id,
    loginId: z.string().max(512),
    language: z.string().max(35).default(""),
  }),
);
const redeemRecoveryLinkRequest = messageSchema<RedeemRecoveryLinkRequest>()(
  z.object({ companyId: id, linkToken: z.string().max(512) }),
);
const revokeRecoveryLinksRequest = messageSchema<RevokeRecoveryLinksRequest>()(
  z.object({ companyId: id, userId: id }),
);

export function recoveryService(store: RecoveryStore, delivery: MailDelivery, logger: Logger) {
  const methods: AsyncService<typeof RecoveryServiceService> = {
    async sendRecoveryLink(request, context) {
      const input = parseRequest(sendRecoveryLinkRequest, request);
      // Identity spends one of the user's recovery messages as it answers, when the link can go
      // out (an e-mail and a recovery page): beyond the cap, request.ratelimit.exceeded and nothing
      // is issued (docs/decisions.md, "Recovery").
      const { email, companyName, linkBase, mail, brand, defaultLanguage, texts } =
        await delivery.identity.getMailDelivery({
          companyId: input.companyId,
          userId: input.userId,
        });
      if (!email) throw new AuthError("recovery.email.notset");
      if (!linkBase)
        throw new AuthError("recovery.method.restricted", { detail: "the company has no recovery page" });
      const token = await store.issueLink(
        { companyId: input.companyId, userId: input.userId, loginId: input.loginId },
        linkLifetimeMs,
        eventOriginOf(context, input.userId),
      );
      const link = recoveryLink(linkBase, token);
      const message = recoveryMail(input.companyId, email, { name: companyName, brand }, link, {
        requested: input.language,
        defaultLanguage,
        texts,
      });
      await sendMail(message, mail, delivery.fallback, delivery.timeoutMs);
      metrics.emailsSent.inc();
      logger.info({ companyId: input.companyId, userId: input.userId }, "recovery link sent");
      return {};
    },

    async redeemRecoveryLink(request, context) {
      const input = parseRequest(redeemRecoveryLinkRequest, request);
      return store.redeemLink(input.companyId, input.linkToken, (userId) => eventOriginOf(context, userId));
    },

    async revokeRecoveryLinks(request) {
      const input = parseRequest(revokeRecoveryLinksRequest, request);
      return { revoked: await store.revokeUserLinks(input.companyId, input.userId) };
    },
  };

  return {
    name: "auth.recovery.v1.RecoveryService",
    definition: RecoveryServiceService,
    implementation: implement(RecoveryServiceService, methods, { logger, access: recoveryAccess }),
  };
}
