import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const version = "v1";

/**
 * Secrets identity stores (OAuth client secrets, the secrets of a company's policy) are sealed
 * with AES-256-GCM under a key the database never holds: a copy of the database alone gives no
 * secret away.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [version, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
  }

  /**
   * The secret sealed, or `stored` when it is a sealing of the same secret: a write that leaves a
   * secret as it was stores it as it was, and changes no field of its event.
   */
  sealAgain(plaintext: string, stored: string | undefined): string {
    return stored !== undefined && this.#holds(stored, plaintext) ? stored : this.seal(plaintext);
  }

  /** Whether the sealed text holds this secret, compared in constant time. */
  #holds(sealed: string, plaintext: string): boolean {
    let opened: string;
    try {
      opened = this.open(sealed);
    } catch {
      return false;
    }
    const digest = (text: string) => createHash("sha256").update(text).digest();
    return timingSafeEqual(digest(opened), digest(plaintext));
  }

  open(sealed: string): string {
    const [tag, iv, authTag, ciphertext] = sealed.split(".");
    if (tag !== version || !iv || !authTag || ciphertext === undefined)
      throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(authTag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }
}

/**
 * The key a SecretBox seals with: the configured one (base64), or for the embedded default one
 * made once and kept beside the service's PGlite files (`<dataDir>/secrets.key`, mode 0600).
 */
export function secretsKeyOf(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, "base64");
  const file = join(dataDir, "secrets.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
}
