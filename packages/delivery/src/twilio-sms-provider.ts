import type { SmsSettings } from "@auth/proto/otp";
import type RequestClient from "twilio/lib/base/RequestClient.js";
import { failureOfAnswer, failureOfNetwork, type HttpDefaults, sendWithRetries } from "./sms-retries.js";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

/** What Twilio needs of the company's settings (proto SmsProvider: account = Account SID, token = Auth Token). */
export type TwilioAccount = Pick<SmsSettings, "url" | "account" | "token" | "sender">;

/** Loaded with the first Twilio send, as nodemailer is (smtp.ts): a process that never sends through Twilio never holds it. */
const loadTwilio = () => import("twilio").then((module) => module.default);

type TwilioSdk = Awaited<ReturnType<typeof loadTwilio>>;

/**
 * Twilio's own HTTP client, pointed at `url` when the company set one (the API's paths kept), with
 * its retries of 429 left off: sendWithRetries decides. It keeps the last answer, whose Retry-After
 * Twilio's RestException leaves out.
 */
function httpClientOf(twilio: TwilioSdk, url: string, timeoutMs: number) {
  const base = url.replace(/\/+$/, "");
  class RebasedClient extends twilio.RequestClient {
    override request<TData>(options: RequestClient.RequestOptions<TData>) {
      if (!base) return super.request<TData>(options);
      const { pathname, search } = new URL(options.uri);
      return super.request<TData>({ ...options, uri: `${base}${pathname}${search}` });
    }
  }
  return new RebasedClient({ timeout: timeoutMs, keepAlive: false, autoRetry: false });
}

/**
 * Sends through Twilio Programmable Messaging (POST /2010-04-01/Accounts/{sid}/Messages.json). Its
 * SDK reports an answer as a RestException with the HTTP status and Twilio's code (21211 an invalid
 * number, 400; 20003 bad credentials, 401; 20429, 429), and no answer as axios's error (ECONNREFUSED,
 * ECONNABORTED for the timeout). Twilio takes no idempotency key for a message.
 */
export class TwilioSmsProvider implements SmsSender {
  constructor(
    private readonly account: TwilioAccount,
    private readonly limits: HttpDefaults,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const { url, account, token, sender } = this.account;
    const twilio = await loadTwilio();
    const http = httpClientOf(twilio, url, this.limits.timeoutMs);
    // A Messaging Service SID (MG...) picks the number itself; anything else is the From.
    const from = /^MG[0-9a-f]{32}$/i.test(sender) ? { messagingServiceSid: sender } : { from: sender };
    await sendWithRetries(
      async () => {
        // Made here: the SDK throws at once on a malformed Account SID, which is then an attempt's failure.
        const client = twilio(account, token, { httpClient: http });
        await client.messages.create({ to: message.to, body: message.text, ...from });
      },
      (error) =>
        error instanceof twilio.RestException
          ? failureOfAnswer(
              error.status,
              http.lastResponse?.headers?.["retry-after"],
              `Twilio answered ${error.status} (error ${error.code ?? "none"})`,
            )
          : failureOfNetwork(error),
      { ...this.limits, idempotent: false },
    );
  }
}
