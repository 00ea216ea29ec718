ALTER TABLE "oauth_providers" ADD COLUMN "trusts_provider_mfa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_providers" ADD COLUMN "mfa_acr_values" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_providers" ADD COLUMN "max_age_seconds" integer DEFAULT 0 NOT NULL;