import { createHmac, randomUUID } from "node:crypto";
import { failureOfAnswer, failureOfNetwork, type HttpDefaults, sendWithRetries } from "./sms-retries.js";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

export interface HttpSmsProviderOptions extends HttpDefaults {
  url: string;
  /** Sent as `Authorization: Bearer ...`, and the key of the X-Signature HMAC. */
  token: string;
}

/** `sha256=<hex>`: the HMAC-SHA-256 of "<timestamp>.<body>" under the token. */
const signatureOf = (token: string, timestamp: string, body: string) =>
  `sha256=${createHmac("sha256", token).update(`${timestamp}.${body}`).digest("hex")}`;

/** An answer that is not 2xx, with what it says about the message. */
class ProviderAnswer extends Error {
  constructor(readonly response: Response) {
    super(`provider answered ${response.status}`);
  }
}

/**
 * Sends through a company's or the deployment's own SMS endpoint: POST `{"id", "to", "text"}` as
 * JSON, signed (docs/operations.md, "Message senders"). The receiver drops a repeat of an `id`, so
 * a timeout or a 5xx is tried again with the same one; a 4xx but 429 is final.
 */
export class HttpSmsProvider implements SmsSender {
  constructor(private readonly options: HttpSmsProviderOptions) {}

  async send(message: SmsMessage): Promise<void> {
    const { url, token, timeoutMs, retries } = this.options;
    const id = randomUUID();
    const body = JSON.stringify({ id, to: message.to, text: message.text });
    const attempt = async () => {
      const timestamp = Math.floor(Date.now() / 1000).toString();
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          "idempotency-key": id,
          "x-timestamp": timestamp,
          "x-signature": signatureOf(token, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) throw new ProviderAnswer(response);
    };
    await sendWithRetries(
      attempt,
      (error) =>
        error instanceof ProviderAnswer
          ? failureOfAnswer(error.response.status, error.response.headers.get("retry-after"), error.message)
          : failureOfNetwork(error),
      { timeoutMs, retries, idempotent: true },
    );
  }
}
