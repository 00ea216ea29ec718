CREATE TABLE "oauth_links" (
	"company_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_links_company_id_slot_subject_pk" PRIMARY KEY("company_id","slot","subject")
);
--> statement-breakpoint
CREATE TABLE "oauth_providers" (
	"company_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"authorization_endpoint" text NOT NULL,
	"token_endpoint" text NOT NULL,
	"userinfo_endpoint" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_encrypted" text NOT NULL,
	"redirect_uris" jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"subject_claim" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_providers_company_id_slot_pk" PRIMARY KEY("company_id","slot")
);
--> statement-breakpoint
ALTER TABLE "oauth_links" ADD CONSTRAINT "oauth_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_providers" ADD CONSTRAINT "oauth_providers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_links_user_idx" ON "oauth_links" USING btree ("user_id");