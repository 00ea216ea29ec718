CREATE TABLE "acceptances" (
	"disclaimer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_address" text NOT NULL,
	CONSTRAINT "acceptances_disclaimer_id_version_user_id_pk" PRIMARY KEY("disclaimer_id","version","user_id")
);
--> statement-breakpoint
CREATE TABLE "disclaimer_versions" (
	"disclaimer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disclaimer_versions_disclaimer_id_version_pk" PRIMARY KEY("disclaimer_id","version")
);
--> statement-breakpoint
CREATE TABLE "disclaimers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disclaimers_company_code_key" UNIQUE("company_id","code")
);
--> statement-breakpoint
ALTER TABLE "acceptances" ADD CONSTRAINT "acceptances_disclaimer_id_disclaimers_id_fk" FOREIGN KEY ("disclaimer_id") REFERENCES "public"."disclaimers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disclaimer_versions" ADD CONSTRAINT "disclaimer_versions_disclaimer_id_disclaimers_id_fk" FOREIGN KEY ("disclaimer_id") REFERENCES "public"."disclaimers"("id") ON DELETE no action ON UPDATE no action;