import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, base64url. */
export function generateApiKey(): string {
  return randomBytes(32).toString("base64url");
}

/** API keys are long random strings, so a plain SHA-256 is a safe way to store them. */
export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("base64url");
}
