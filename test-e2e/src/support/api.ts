import type { ApiResponse } from "@auth/testing/api";
import { inject } from "vitest";
import { answers } from "./answers.js";

export { type ApiResponse, expectError, expectSuccess } from "@auth/testing/api";

export interface CallOptions {
  apiKey?: string;
  token?: string;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  method?: string;
  /** Another suite's gateway; the shared suite's by default. */
  gatewayUrl?: string;
}

/** Calls `/{company}/v2/auth/{operation}` on the gateway. */
export async function call(
  company: string,
  operation: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const method = options.method ?? "POST";
  const body =
    method === "GET" || options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const response = await fetch(
    `${options.gatewayUrl ?? inject("gatewayUrl")}/${company}/v2/auth/${operation}`,
    { method, headers, body },
  );
  const text = await response.text();
  const answer = {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
  answers.push({ operation, method, ...answer });
  return answer;
}
