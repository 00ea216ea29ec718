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
import { ContactKind, type IdentityServiceService } from "@auth/proto/identity";
import {
  LinkPurpose,
  RecoveryServiceService,
  type RedeemRecoveryLinkRequest,
  type RevokeRecoveryLinksRequest,
  type SendRecoveryLinkRequest,
} from "@auth/proto/recovery";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { recoveryAccess } from "./access.js";
import { type LinkKind, linkKinds, linkMail, linkOf } from "./links.js";
import type { RecoveryStore } from "./store/recovery-store.js";

const id = z.string().min(1, "is required").max(200);
export interface MailDelivery {
  /**
   * The owner of users' e-mails and companies' mail settings, asked on every send, and told of a
   * redeemed e-mail change's link.
   */
  identity: Pick<ServiceClient<typeof IdentityServiceService>, "getMailDelivery" | "applyContactChange">;
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
    purpose: z.enum(LinkPurpose).optional(),
  }),
);
const redeemRecoveryLinkRequest = messageSchema<RedeemRecoveryLinkRequest>()(
  z.object({ companyId: id, linkToken: z.string().max(512), purpose: z.enum(LinkPurpose).optional() }),
);
const revokeRecoveryLinksRequest = messageSchema<RevokeRecoveryLinksRequest>()(
  z.object({ companyId: id, userId: id }),
);

export function recoveryService(store: RecoveryStore, delivery: MailDelivery, logger: Logger) {
  const methods: AsyncService<typeof RecoveryServiceService> = {
    async sendRecoveryLink(request, context) {
      const input = parseRequest(sendRecoveryLinkRequest, request);
      const kind: LinkKind = input.purpose === LinkPurpose.EMAIL_CHANGE ? "emailChange" : "recovery";
      // Identity spends one of the user's recovery messages as it answers, when the link can go
      // out (an e-mail and a recovery page): beyond the cap, request.ratelimit.exceeded and nothing
      // is issued (docs/decisions.md, "Recovery"). An e-mail change's goes to the pending e-mail.
      const { email, companyName, linkBase, mail, brand, defaultLanguage, texts } =
        await delivery.identity.getMailDelivery({
          companyId: input.companyId,
          userId: input.userId,
          purpose: input.purpose,
        });
      if (!email) throw new AuthError("recovery.email.notset");
      if (!linkBase)
        throw new AuthError(kind === "recovery" ? "recovery.method.restricted" : "recovery.email.notset", {
          detail: "the company has no recovery page",
        });
      const token = await store.issueLink(
        {
          companyId: input.companyId,
          userId: input.userId,
          loginId: input.loginId,
          newEmail: kind === "emailChange" ? email : undefined,
        },
        linkKinds[kind].lifetimeMs,
        eventOriginOf(context, input.userId),
      );
      const link = linkOf(kind, linkBase, token);
      const message = linkMail(kind, input.companyId, email, { name: companyName, brand }, link, {
        requested: input.language,
        defaultLanguage,
        texts,
      });
      await sendMail(message, mail, delivery.fallback, delivery.timeoutMs);
      metrics.emailsSent.inc();
      logger.info({ companyId: input.companyId, userId: input.userId, kind }, "link sent");
      return {};
    },

    async redeemRecoveryLink(request, context) {
      const input = parseRequest(redeemRecoveryLinkRequest, request);
      const emailChange = input.purpose === LinkPurpose.EMAIL_CHANGE;
      const redeemed = await store.redeemLink(
        input.companyId,
        input.linkToken,
        (userId) => eventOriginOf(context, userId),
        emailChange,
      );
      if (redeemed.newEmail === undefined) return redeemed;
      // The owner of the link applies the change it confirms; the user's other links end with it
      // (a recovery link went to the old address).
      const { applied } = await delivery.identity.applyContactChange({
        companyId: input.companyId,
        userId: redeemed.userId,
        kind: ContactKind.EMAIL,
        address: redeemed.newEmail,
      });
      if (!applied) throw new AuthError("auth.token.invalid", { detail: "the change is no longer pending" });
      await store.revokeUserLinks(input.companyId, redeemed.userId);
      return { userId: redeemed.userId, loginId: "" };
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
