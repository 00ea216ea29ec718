import { availableParallelism } from "node:os";
import { type Algorithm, hash, parseOptions } from "@node-rs/argon2";
import { parsePasswordHash } from "./imported-hashes/index.js";
import { Semaphore } from "./semaphore.js";

// The binding declares Algorithm as an ambient const enum, which isolated modules cannot read.
const argon2id = 2 as Algorithm.Argon2id;

export interface Argon2Parameters {
  /** KiB. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** A stored password hash and whether it is of the password's NFKC form. */
export interface StoredPassword {
  passwordHash: string;
  passwordNfkc: boolean;
}

/** OWASP's argon2id minimum (docs/api-contract.md, "Passwords"). */
export const owaspMinimum: Argon2Parameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * argon2id hashing on the binding's thread pool, off the event loop. Hashes carry their
 * parameters, so a hash made with weaker ones is recognised and can be replaced at the next login.
 */
export class PasswordHasher {
  readonly #parameters: Argon2Parameters;
  readonly #semaphore: Semaphore;
  #decoy: Promise<string> | undefined;

  /**
   * `concurrency` bounds the hashes under way at once: each takes `memoryCost` KiB, and more
   * hashes at a time than cores only add memory, not throughput.
   */
  constructor(parameters: Argon2Parameters, concurrency = availableParallelism()) {
    this.#parameters = parameters;
    this.#semaphore = new Semaphore(concurrency);
  }

  hash(password: string): Promise<string> {
    return this.#semaphore.run(() => hash(password, { algorithm: argon2id, ...this.#parameters }));
  }

  /**
   * A verification in the hash's own scheme: argon2id as the product makes, or one an import brought
   * (docs/decisions.md, "Imported password hashes"); a hash of no known scheme verifies nothing.
   */
  async verify(passwordHash: string, password: string): Promise<boolean> {
    const parsed = parsePasswordHash(passwordHash);
    if (!parsed.ok) return false;
    try {
      return await this.#semaphore.run(() => parsed.verify(password));
    } catch {
      return false;
    }
  }

  /** A hash of the password's NFKC form, the form every password hash is made of (docs/security.md, "Passwords"). */
  hashPassword(password: string): Promise<string> {
    return this.hash(password.normalize("NFKC"));
  }

  /**
   * One verification of a password against its stored hash: of the password's NFKC form, or of
   * the password as typed for a hash made before normalisation or elsewhere (`passwordNfkc` false).
   */
  verifyPassword(stored: StoredPassword, password: string): Promise<boolean> {
    return this.verify(stored.passwordHash, stored.passwordNfkc ? password.normalize("NFKC") : password);
  }

  /**
   * A hash of a look-up secret with the given salt. A user's backup codes share one salt, so that a
   * code presented is hashed once and found among them by equality (hashLike).
   */
  hashWithSalt(secret: string, salt: Uint8Array): Promise<string> {
    return this.#semaphore.run(() => hash(secret, { algorithm: argon2id, ...this.#parameters, salt }));
  }

  /**
   * The secret hashed with the salt and parameters of an existing hash (hashWithSalt's): equal to
   * it when the secret is the same.
   */
  hashLike(existing: string, secret: string): Promise<string> {
    const { algorithm, version, memoryCost, timeCost, parallelism, outputLen } = parseOptions(existing);
    const salt = Buffer.from(existing.split("$")[4] ?? "", "base64");
    return this.#semaphore.run(() =>
      hash(secret, { algorithm, version, memoryCost, timeCost, parallelism, outputLen, salt }),
    );
  }

  /**
   * Spends the time of one verification and fails: what an unknown login ID costs, so that the
   * answer time does not tell whether it exists.
   */
  async verifyNothing(password: string): Promise<false> {
    this.#decoy ??= this.hash(`decoy-${Math.random()}`);
    await this.verify(await this.#decoy, password);
    return false;
  }

  /** True when the hash is not argon2id (an imported one) or was made with weaker parameters than the configured ones. */
  needsRehash(passwordHash: string): boolean {
    try {
      const used = parseOptions(passwordHash);
      return (
        used.algorithm !== argon2id ||
        used.memoryCost < this.#parameters.memoryCost ||
        used.timeCost < this.#parameters.timeCost ||
        used.parallelism < this.#parameters.parallelism
      );
    } catch {
      return true;
    }
  }
}
