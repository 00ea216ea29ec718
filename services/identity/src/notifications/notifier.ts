import {
  type HttpDefaults,
  type MailSender,
  messageTranslator,
  type SmsSender,
  senderFor,
  sendMail,
} from "@auth/delivery";
import { AuthError } from "@auth/errors";
import type { Logger, SecretBox } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { companyTextsOf } from "../company-texts.js";
import type { Lookups } from "../handlers/lookups.js";
import { openPolicySecrets } from "../policy-secrets.js";
import type { IdentityStore } from "../store/identity-store.js";
import { noticesPerWindow, noticeWindowSeconds } from "./caps.js";
import { noticeMail } from "./notice-mail.js";
import { eventNames, type KnownEvent } from "./templates.js";
import { wordingOf } from "./wording.js";

export interface NotifierOptions {
  /** The deployment's senders, for companies without their own SMTP server or SMS provider. */
  mail: MailSender;
  sms: SmsSender;
  smtpTimeoutMs: number;
  smsHttp: HttpDefaults;
  secrets: SecretBox;
  /** Where the notices of each kind sent to each user are counted, for their cap. */
  store: Pick<IdentityStore, "spendNotice">;
  logger: Logger;
}

/** Where a notice goes instead of the user's addresses: each one given (a change's old address). */
export interface NoticeAddresses {
  email?: string | undefined;
  phone?: string | undefined;
}

/** What a notice tells besides its event, and where it goes when not to the user's addresses. */
export interface NoticeOptions {
  to?: NoticeAddresses;
  /** The user agent of a new device's session, named in its notice. */
  userAgent?: string;
}

/**
 * Tells users of what happened to their accounts (docs/security.md, "Notifications"): by e-mail,
 * by SMS when the user has no e-mail, not at all without either (or to each of the addresses a
 * change of address names: the old one); at most `noticesPerWindow` of a
 * kind to one user in `noticeWindowSeconds`, whoever asks (caps.ts). Best-effort: a notice is sent
 * after what it tells of is done, in the background, and a failure is counted and logged (without
 * address or login ID), never the caller's.
 */
export class Notifier {
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly options: NotifierOptions,
    private readonly lookups: Pick<Lookups, "recipient">,
  ) {}

  /** Starts the notice; returns at once. */
  notify(companyId: string, userId: string, event: KnownEvent, options: NoticeOptions = {}): void {
    const delivery = this.#deliver(companyId, userId, event, options).finally(() =>
      this.#inFlight.delete(delivery),
    );
    this.#inFlight.add(delivery);
  }

  /** Resolves when every notice started so far is sent or has failed: for shutdown and tests. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  async #deliver(
    companyId: string,
    userId: string,
    event: KnownEvent,
    { to, ...facts }: NoticeOptions,
  ): Promise<void> {
    const name = eventNames[event];
    let channel = "none";
    try {
      // No notice to a suspended company's users or a user who is not active, as no other message.
      const { company, user } = await this.lookups.recipient(companyId, userId);
      const policy = openPolicySecrets(company.policy, this.options.secrets);
      // Sent outside any request of the user's: in the company's default language
      // (docs/decisions.md, "Languages").
      const words = messageTranslator({
        defaultLanguage: policy.defaultLanguage,
        texts: companyTextsOf(policy),
      });
      const wording = wordingOf(event, words, { ...facts, company: company.name, time: new Date() });
      const { email, phone }: NoticeAddresses =
        to ?? (user.email ? { email: user.email } : { phone: user.phone ?? undefined });
      if (!email && !phone) {
        metrics.notifications.inc({ event: name, channel, outcome: "skipped" });
        return;
      }
      // Counted before it is sent, atomically: of parallel requests only the cap's number send.
      // A notice that then fails to go out still counts.
      const limit = noticesPerWindow[event];
      if (!(await this.options.store.spendNotice(companyId, userId, name, limit, noticeWindowSeconds))) {
        metrics.notifications.inc({ event: name, channel, outcome: "capped" });
        this.options.logger.debug({ companyId, userId, event: name }, "no notice: its kind's cap holds");
        return;
      }
      if (email) {
        channel = "email";
        await sendMail(
          {
            companyId,
            to: email,
            ...noticeMail({ name: company.name, brand: policy.brand }, wording, words),
            notification: name,
          },
          policy.mail,
          this.options.mail,
          this.options.smtpTimeoutMs,
        );
      }
      if (phone) {
        channel = email ? "email+sms" : "sms";
        await senderFor(policy.sms, this.options.sms, this.options.smsHttp).send({
          companyId,
          to: phone,
          text: wording.smsText,
          notification: name,
        });
      }
      metrics.notifications.inc({ event: name, channel, outcome: "sent" });
    } catch (error) {
      const refused = error instanceof AuthError && channel === "none";
      metrics.notifications.inc({ event: name, channel, outcome: refused ? "skipped" : "failed" });
      // A sender's AuthError says what failed without the address; its cause (the SMTP server's
      // answer) may hold it, and is left out.
      const log = {
        companyId,
        userId,
        event: name,
        channel,
        ...(error instanceof AuthError ? { code: error.code, problem: error.message } : { err: error }),
      };
      if (refused) this.options.logger.debug(log, "no notice: the user may not be sent messages");
      else this.options.logger.warn(log, "notice not sent");
    }
  }
}
