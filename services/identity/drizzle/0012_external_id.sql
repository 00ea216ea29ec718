ALTER TABLE "users" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_external_id_key" UNIQUE("company_id","external_id");