import { pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { hash as argon2 } from "@node-rs/argon2";
import { hash as bcrypt } from "@node-rs/bcrypt";

/** The formats an import takes (docs/operations.md, "Importing users"). */
export const importedFormats = [
  "bcrypt",
  "argon2i",
  "scryptPasslib",
  "scryptWerkzeug",
  "pbkdf2Phc",
  "pbkdf2Passlib",
  "pbkdf2Django",
] as const;
export type ImportedFormat = (typeof importedFormats)[number];

const base64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
const adaptedBase64 = (bytes: Buffer) => base64(bytes).replaceAll("+", ".");

/**
 * A hash of the password in each format, as the systems that make them write it, at the least
 * costs they allow, so that tests and the benchmark spend their time on the import, not the hashing.
 */
export async function importedHashesOf(password: string): Promise<Record<ImportedFormat, string>> {
  const salt = randomBytes(16);
  const textSalt = randomBytes(12).toString("base64url");
  const scrypt = (saltBytes: Buffer) => scryptSync(password, saltBytes, 32, { N: 1024, r: 8, p: 1 });
  const pbkdf2 = (saltBytes: Buffer) => pbkdf2Sync(password, saltBytes, 1000, 32, "sha256");
  return {
    bcrypt: await bcrypt(password, 4),
    argon2i: await argon2(password, { algorithm: 1, memoryCost: 4096, timeCost: 1 }),
    scryptPasslib: `$scrypt$ln=10,r=8,p=1$${adaptedBase64(salt)}$${adaptedBase64(scrypt(salt))}`,
    scryptWerkzeug: `scrypt:1024:8:1$${textSalt}$${scrypt(Buffer.from(textSalt)).toString("hex")}`,
    pbkdf2Phc: `$pbkdf2-sha256$i=1000,l=32$${base64(salt)}$${base64(pbkdf2(salt))}`,
    pbkdf2Passlib: `$pbkdf2-sha256$1000$${adaptedBase64(salt)}$${adaptedBase64(pbkdf2(salt))}`,
    pbkdf2Django: `pbkdf2_sha256$1000$${textSalt}$${pbkdf2(Buffer.from(textSalt)).toString("base64")}`,
  };
}
