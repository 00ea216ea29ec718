import type { SmsSettings } from "@auth/proto/otp";
import { failureOfAnswer, failureOfNetwork, type HttpDefaults, sendWithRetries } from "./sms-retries.js";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

/** What Vonage needs of the company's settings (proto SmsProvider: account = API key, token = API secret). */
export type VonageAccount = Pick<SmsSettings, "url" | "account" | "token" | "sender">;

/** Loaded with the first Vonage send, as nodemailer is (smtp.ts). */
const loadVonage = () => import("@vonage/sms");

/**
 * The SMS API answers 200 with a status per message; the HTTP status each stands for under the
 * retry rule: 1 (throttled) is 429, 4 and 14 (credentials, signature) are 401, 5 (internal error)
 * is 500, every other is a refusal of the message (3 invalid number, 6 unroutable, ...).
 */
const statusAsHttp: Record<string, number> = { "1": 429, "4": 401, "14": 401, "5": 500 };

/** An answer that is not 2xx: @vonage/server-client throws a VetchError holding node-fetch's Response. */
interface HttpAnswer {
  status: number;
  headers: { get(name: string): string | null };
}
const httpAnswerOf = (error: unknown) => (error as { response?: HttpAnswer } | null)?.response;

/**
 * Sends through the Vonage SMS API (POST /sms/json, Basic auth of key and secret). Its SDK throws an
 * SMSFailure for a message the API did not take (the status of each message), a VetchError for an
 * answer that is not 2xx (with the response), and node-fetch's FetchError (ECONNREFUSED) or
 * AbortError (the timeout) for no answer. Vonage takes no idempotency key for a message.
 */
export class VonageSmsProvider implements SmsSender {
  constructor(
    private readonly account: VonageAccount,
    private readonly limits: HttpDefaults,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const { url, account, token, sender } = this.account;
    const { SMS, SMSFailure } = await loadVonage();
    const client = new SMS(
      { apiKey: account, apiSecret: token },
      { ...(url ? { restHost: url.replace(/\/+$/, "") } : {}), timeout: this.limits.timeoutMs },
    );
    await sendWithRetries(
      async () => {
        // Vonage takes the E.164 number without its +.
        await client.send({ to: message.to.replace(/^\+/, ""), from: sender, text: message.text });
      },
      (error) => {
        if (error instanceof SMSFailure) {
          const status = error.getFailedMessages()[0]?.status ?? "";
          return failureOfAnswer(statusAsHttp[status] ?? 400, undefined, `Vonage status ${status}`);
        }
        const answer = httpAnswerOf(error);
        return typeof answer?.status === "number"
          ? failureOfAnswer(
              answer.status,
              answer.headers.get("retry-after"),
              `Vonage answered ${answer.status}`,
            )
          : failureOfNetwork(error);
      },
      { ...this.limits, idempotent: false },
    );
  }
}
