import { AuthError } from "@auth/errors";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

export interface HttpSmsProviderOptions {
  url: string;
  /** Sent as `Authorization: Bearer ...`. */
  token: string;
  timeoutMs: number;
  /** Further attempts after a network error or a 5xx answer. */
  retries: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends through an SMS provider's HTTP API: POST `{ "to": "+...", "text": "..." }` as JSON. A 2xx
 * answer is a send; a 4xx is final; network errors, timeouts and 5xx are tried again.
 */
export class HttpSmsProvider implements SmsSender {
  constructor(private readonly options: HttpSmsProviderOptions) {}

  async send(message: SmsMessage): Promise<void> {
    let lastProblem = "";
    for (let attempt = 0; attempt <= this.options.retries; attempt += 1) {
      if (attempt > 0) await sleep(100 * 2 ** (attempt - 1));
      try {
        const response = await fetch(this.options.url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${this.options.token}` },
          body: JSON.stringify({ to: message.to, text: message.text }),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        await response.body?.cancel();
        if (response.ok) return;
        lastProblem = `provider answered ${response.status}`;
        if (response.status < 500) break;
      } catch (error) {
        lastProblem = error instanceof Error ? error.name : "request failed";
      }
    }
    throw new AuthError("service.unavailable", { detail: `SMS not sent: ${lastProblem}` });
  }
}
