CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "entitlements" TEXT[],
    "credit_balance" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "icp" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lists" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "list_items" (
    "list_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "list_items_pkey" PRIMARY KEY ("list_id", "entity_id")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "hold_id" UUID,
    "entity_type" TEXT,
    "entity_id" UUID,
    "operation_key" TEXT,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_holds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "job_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),
    CONSTRAINT "credit_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "unlocks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "credits_spent" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "hold_id" UUID,
    "job_id" TEXT,
    "operation_key" TEXT,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "unlocked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "unlocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "organization_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("organization_id", "key")
);

-- CreateTable
CREATE TABLE "districts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "fed_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "website_url" TEXT,
    "student_count" INTEGER,
    "school_count" INTEGER,
    "grade_span" TEXT,
    "grade_low" TEXT,
    "grade_high" TEXT,
    "grade_levels" TEXT[],
    "locale_type" TEXT,
    "locale_code" TEXT,
    "total_revenue" DOUBLE PRECISION,
    "revenue_per_student" DOUBLE PRECISION,
    "total_expenditures" DOUBLE PRECISION,
    "expenditures_per_student" DOUBLE PRECISION,
    "instructional_expenditures" DOUBLE PRECISION,
    "instructional_expenditures_percent" DOUBLE PRECISION,
    "support_services_expenditures" DOUBLE PRECISION,
    "student_teacher_ratio" DOUBLE PRECISION,
    "total_staff" DOUBLE PRECISION,
    "meeting_minutes_pdfs" JSONB,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "physical_state" TEXT,
    "physical_zip" TEXT,
    "mailing_address" TEXT,
    "mailing_city" TEXT,
    "mailing_state" TEXT,
    "mailing_zip" TEXT,
    "phone" TEXT,
    "county" TEXT,
    "county_fips" TEXT,
    "state_fips" TEXT,
    "state_district_id" TEXT,
    "district_type" TEXT,
    "district_type_code" TEXT,
    "charter_lea" TEXT,
    "operational_status" TEXT,
    "teachers_fte" DOUBLE PRECISION,
    "fed_data_year" INTEGER,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "strategic_priorities" JSONB,
    "ai_summary" TEXT,
    "summary_generated_at" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'pending',
    "website_mapped_at" TIMESTAMPTZ(3),
    "content_fetched_at" TIMESTAMPTZ(3),
    "content_extracted_at" TIMESTAMPTZ(3),
    "last_analysis_job_id" UUID,
    "data_source" TEXT NOT NULL,
    "crawled_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    "retry_count" INTEGER NOT NULL DEFAULT 0,
    "notes" TEXT,
    "last_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "districts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "schools" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "district_id" UUID,
    "district_fed_id" TEXT,
    "fed_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "website_url" TEXT,
    "student_count" INTEGER,
    "grade_levels" TEXT,
    "grade_low" TEXT,
    "grade_high" TEXT,
    "grade_buckets" TEXT[],
    "state_school_id" TEXT,
    "school_type" TEXT,
    "locale_type" TEXT,
    "locale_code" TEXT,
    "fed_data_year" INTEGER,
    "teachers_fte" DOUBLE PRECISION,
    "student_teacher_ratio" DOUBLE PRECISION,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "physical_state" TEXT,
    "physical_zip" TEXT,
    "mailing_address" TEXT,
    "mailing_city" TEXT,
    "mailing_state" TEXT,
    "mailing_zip" TEXT,
    "phone" TEXT,
    "county" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "ai_summary" TEXT,
    "summary_generated_at" TIMESTAMPTZ(3),
    "source" TEXT,
    "source_url" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "website_mapped_at" TIMESTAMPTZ(3),
    "content_fetched_at" TIMESTAMPTZ(3),
    "content_extracted_at" TIMESTAMPTZ(3),
    "last_analysis_job_id" UUID,
    "data_source" TEXT NOT NULL,
    "crawled_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    "retry_count" INTEGER NOT NULL DEFAULT 0,
    "notes" TEXT,
    "last_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "schools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "district_annual_stats" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "district_id" UUID NOT NULL,
    "school_year_start" INTEGER NOT NULL,
    "total_enrollment" INTEGER,
    "operational_school_count" INTEGER,
    "total_population" INTEGER,
    "school_age_population" INTEGER,
    "school_age_children_in_poverty" INTEGER,
    "finance_fiscal_year" INTEGER,
    "total_staff_fte" DOUBLE PRECISION,
    "teachers_fte" DOUBLE PRECISION,
    "school_counselors_fte" DOUBLE PRECISION,
    "school_psychologists_fte" DOUBLE PRECISION,
    "student_support_staff_fte" DOUBLE PRECISION,
    "instructional_aides_fte" DOUBLE PRECISION,
    "district_administrators_fte" DOUBLE PRECISION,
    "school_administrators_fte" DOUBLE PRECISION,
    "total_revenue" DOUBLE PRECISION,
    "local_revenue" DOUBLE PRECISION,
    "state_revenue" DOUBLE PRECISION,
    "federal_revenue" DOUBLE PRECISION,
    "property_tax_revenue" DOUBLE PRECISION,
    "title_i_revenue" DOUBLE PRECISION,
    "state_special_education_revenue" DOUBLE PRECISION,
    "total_expenditures" DOUBLE PRECISION,
    "current_expenditures" DOUBLE PRECISION,
    "instruction_expenditures" DOUBLE PRECISION,
    "support_services_expenditures" DOUBLE PRECISION,
    "student_support_expenditures" DOUBLE PRECISION,
    "instructional_staff_support_expenditures" DOUBLE PRECISION,
    "general_administration_expenditures" DOUBLE PRECISION,
    "school_administration_expenditures" DOUBLE PRECISION,
    "operations_maintenance_expenditures" DOUBLE PRECISION,
    "student_transportation_expenditures" DOUBLE PRECISION,
    "capital_outlay_expenditures" DOUBLE PRECISION,
    "interest_on_debt_expenditures" DOUBLE PRECISION,
    "total_salaries" DOUBLE PRECISION,
    "instructional_salaries" DOUBLE PRECISION,
    "special_education_teacher_salaries" DOUBLE PRECISION,
    "employee_benefits" DOUBLE PRECISION,
    "long_term_debt_outstanding" DOUBLE PRECISION,
    "utilities_energy_expenditures" DOUBLE PRECISION,
    "technology_supplies_services_expenditures" DOUBLE PRECISION,
    "technology_equipment_expenditures" DOUBLE PRECISION,
    "student_teacher_ratio" DOUBLE PRECISION,
    "counselors_per_1000_students" DOUBLE PRECISION,
    "psychologists_per_1000_students" DOUBLE PRECISION,
    "school_age_poverty_pct" DOUBLE PRECISION,
    "revenue_per_student" DOUBLE PRECISION,
    "current_expenditures_per_student" DOUBLE PRECISION,
    "federal_revenue_share_pct" DOUBLE PRECISION,
    "enrollment_status" TEXT,
    "fed_directory_version" TEXT,
    "fed_membership_version" TEXT,
    "fed_staff_version" TEXT,
    "saipe_version" TEXT,
    "f33_version" TEXT,
    "source_urls" JSONB,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "district_annual_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "school_annual_stats" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "school_id" UUID NOT NULL,
    "school_year_start" INTEGER NOT NULL,
    "total_enrollment" INTEGER,
    "free_lunch_eligible" INTEGER,
    "reduced_price_lunch_eligible" INTEGER,
    "free_or_reduced_price_lunch_eligible" INTEGER,
    "teachers_fte" DOUBLE PRECISION,
    "student_teacher_ratio" DOUBLE PRECISION,
    "free_or_reduced_price_lunch_pct" DOUBLE PRECISION,
    "enrollment_status" TEXT,
    "teachers_status" TEXT,
    "lunch_status" TEXT,
    "operational_status" TEXT,
    "school_type" TEXT,
    "school_level" TEXT,
    "low_grade" TEXT,
    "high_grade" TEXT,
    "charter_status" TEXT,
    "magnet_status" TEXT,
    "title_i_status" TEXT,
    "nslp_status" TEXT,
    "virtual_status" TEXT,
    "fed_directory_version" TEXT,
    "fed_membership_version" TEXT,
    "fed_staff_version" TEXT,
    "fed_characteristics_version" TEXT,
    "fed_lunch_version" TEXT,
    "source_urls" JSONB,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "school_annual_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "district_stat_breakdowns" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "district_id" UUID NOT NULL,
    "school_year_start" INTEGER NOT NULL,
    "breakdown_key" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "subgroup" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "value_status" TEXT,
    "source_version" TEXT,
    "source_url" TEXT,
    CONSTRAINT "district_stat_breakdowns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "school_stat_breakdowns" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "school_id" UUID NOT NULL,
    "school_year_start" INTEGER NOT NULL,
    "breakdown_key" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "subgroup" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "value_status" TEXT,
    "source_version" TEXT,
    "source_url" TEXT,
    CONSTRAINT "school_stat_breakdowns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "special_education_finance" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "district_id" UUID NOT NULL,
    "fiscal_year" INTEGER NOT NULL,
    "school_year_start" INTEGER,
    "total_enrollment" INTEGER,
    "idea_child_count" INTEGER,
    "idea_part_b_revenue" DOUBLE PRECISION,
    "total_federal_revenue" DOUBLE PRECISION,
    "total_revenue" DOUBLE PRECISION,
    "total_expenditures" DOUBLE PRECISION,
    "special_ed_current_expenditures" DOUBLE PRECISION,
    "special_ed_instructional_expenditures" DOUBLE PRECISION,
    "special_ed_student_support_expenditures" DOUBLE PRECISION,
    "special_ed_instructional_staff_support_expenditures" DOUBLE PRECISION,
    "special_ed_transportation_expenditures" DOUBLE PRECISION,
    "idea_revenue_per_sped_student" DOUBLE PRECISION,
    "special_ed_current_expenditures_per_sped_student" DOUBLE PRECISION,
    "sped_enrollment_pct" DOUBLE PRECISION,
    "idea_revenue_share_of_total_revenue_pct" DOUBLE PRECISION,
    "idea_child_count_status" TEXT,
    "idea_part_b_revenue_flag" TEXT,
    "f33_version" TEXT,
    "child_count_version" TEXT,
    "source_f33_url" TEXT,
    "source_child_count_url" TEXT,
    "data_source" TEXT NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "special_education_finance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assessment_summaries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "source_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "school_year" INTEGER NOT NULL,
    "data_quality" TEXT,
    "subjects_available" TEXT[],
    "metrics" JSONB NOT NULL,
    "ela_proficiency_pct" DOUBLE PRECISION,
    "math_proficiency_pct" DOUBLE PRECISION,
    "science_proficiency_pct" DOUBLE PRECISION,
    "grade_summary" JSONB,
    "source_manifest_uri" TEXT,
    "canonical_artifact_uri" TEXT,
    "coverage" JSONB,
    "comparability_warning" TEXT,
    "data_source" TEXT NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "assessment_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assessment_grade_rows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "source_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "school_year" INTEGER NOT NULL,
    "grade" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "student_group_type" TEXT,
    "student_group" TEXT,
    "student_group_id" TEXT,
    "enrolled_count" DOUBLE PRECISION,
    "tested_count" DOUBLE PRECISION,
    "tested_with_scores_count" DOUBLE PRECISION,
    "proficiency_count" DOUBLE PRECISION,
    "proficiency_pct" DOUBLE PRECISION,
    "participation_rate" DOUBLE PRECISION,
    "mean_scale_score" DOUBLE PRECISION,
    "data_quality" TEXT,
    "suppression_code" TEXT,
    "data_source" TEXT NOT NULL,
    CONSTRAINT "assessment_grade_rows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assessment_state_rows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "source_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "school_year" INTEGER NOT NULL,
    "grade" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "student_group_type" TEXT,
    "student_group" TEXT,
    "student_group_id" TEXT,
    "enrolled_count" DOUBLE PRECISION,
    "tested_count" DOUBLE PRECISION,
    "tested_with_scores_count" DOUBLE PRECISION,
    "proficiency_count" DOUBLE PRECISION,
    "proficiency_pct" DOUBLE PRECISION,
    "participation_rate" DOUBLE PRECISION,
    "mean_scale_score" DOUBLE PRECISION,
    "data_quality" TEXT,
    "suppression_code" TEXT,
    "data_source" TEXT NOT NULL,
    CONSTRAINT "assessment_state_rows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendors" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entity_vendors" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "vendor_id" UUID NOT NULL,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "entity_vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pain_points" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "category" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "source_url" TEXT,
    "detected_at" TIMESTAMPTZ(3),
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pain_points_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "funding" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "source" TEXT NOT NULL,
    "amount" DOUBLE PRECISION,
    "fiscal_year" INTEGER,
    "description" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "funding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contracts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "vendor_id" UUID,
    "category" TEXT,
    "amount" DOUBLE PRECISION,
    "starts_on" DATE,
    "expires_on" DATE,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "contracts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bids" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "posted_on" DATE,
    "deadline_at" TIMESTAMPTZ(3),
    "url" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bids_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bid_filings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "bid_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "reason_code" TEXT,
    "reason_note" TEXT,
    "filed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bid_filings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timeline_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "event_date" DATE NOT NULL,
    "event_type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "source_url" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "timeline_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contacts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "district_id" UUID,
    "school_id" UUID,
    "association_id" UUID,
    "head_start_program_id" UUID,
    "childcare_center_id" UUID,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "state" TEXT,
    "is_district_contact" BOOLEAN NOT NULL DEFAULT false,
    "linkedin_url" TEXT,
    "profile_summary" TEXT,
    "key_facts" JSONB,
    "source" TEXT,
    "source_url" TEXT,
    "dedupe_key" TEXT,
    "enrichment_status" TEXT NOT NULL DEFAULT 'pending',
    "enriched_at" TIMESTAMPTZ(3),
    "enrichment_error" TEXT,
    "enrichment_retry_count" INTEGER NOT NULL DEFAULT 0,
    "qualification_score" DOUBLE PRECISION,
    "qualification_justification" TEXT,
    "qualified_at" TIMESTAMPTZ(3),
    "email_status" TEXT NOT NULL DEFAULT 'pending',
    "email_error" TEXT,
    "email_retry_count" INTEGER NOT NULL DEFAULT 0,
    "emailed" BOOLEAN NOT NULL DEFAULT false,
    "email_bounced" BOOLEAN NOT NULL DEFAULT false,
    "emailed_at" TIMESTAMPTZ(3),
    "email_bounced_at" TIMESTAMPTZ(3),
    "email_confidence_score" INTEGER,
    "email_verification_status" TEXT,
    "email_verified_at" TIMESTAMPTZ(3),
    "crm_contact_id" TEXT,
    "crm_synced_at" TIMESTAMPTZ(3),
    "crm_sync_status" TEXT NOT NULL DEFAULT 'pending',
    "crm_sync_error" TEXT,
    "notes" TEXT,
    "data_source" TEXT NOT NULL,
    "brief_reference" JSONB,
    "discovered_at" TIMESTAMPTZ(3),
    "last_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operators" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "normalized_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ein" TEXT,
    "uei" TEXT,
    "chain_key" TEXT,
    "ntee_code" TEXT,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "state" TEXT,
    "physical_zip" TEXT,
    "website_url" TEXT,
    "website_domain" TEXT,
    "brand_favicon_url" TEXT,
    "brand_hero_url" TEXT,
    "brand_color" TEXT,
    "total_revenue" DOUBLE PRECISION,
    "government_grants" DOUBLE PRECISION,
    "fiscal_year_end" TEXT,
    "merged_into_id" UUID,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_filings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "operator_id" UUID NOT NULL,
    "ein" TEXT NOT NULL,
    "tax_period" TEXT NOT NULL,
    "form" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "is_current" BOOLEAN NOT NULL DEFAULT true,
    "total_revenue" DOUBLE PRECISION,
    "government_grants" DOUBLE PRECISION,
    "source_url" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "operator_filings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contractor_payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "filing_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "normalized_name" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "services" TEXT,
    "line_key" TEXT,
    CONSTRAINT "contractor_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "head_start_programs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "grant_number" TEXT NOT NULL,
    "delegate_number" TEXT,
    "parent_program_id" UUID,
    "recipient_name" TEXT,
    "operator_id" UUID,
    "state" TEXT NOT NULL,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "physical_zip" TEXT,
    "county" TEXT,
    "phone" TEXT,
    "website_url" TEXT,
    "email" TEXT,
    "district_id" UUID,
    "program_types" TEXT[],
    "funded_slots" INTEGER,
    "open_site_count" INTEGER,
    "site_count" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'active',
    "grant_amount" DOUBLE PRECISION,
    "grant_start" DATE,
    "grant_end" DATE,
    "source_url" TEXT,
    "source_version" TEXT,
    "report_year" INTEGER,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "head_start_programs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "childcare_centers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "license_number" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "physical_zip" TEXT,
    "county" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "phone" TEXT,
    "email" TEXT,
    "website_url" TEXT,
    "license_type" TEXT NOT NULL,
    "license_type_raw" TEXT,
    "license_status" TEXT NOT NULL,
    "license_status_raw" TEXT,
    "first_licensed" DATE,
    "license_expires" DATE,
    "capacity" INTEGER,
    "capacity_by_age" JSONB,
    "ages_served" TEXT,
    "licensee_name" TEXT,
    "chain" TEXT,
    "operator_id" UUID,
    "director_name" TEXT,
    "quality_rating" TEXT,
    "accepts_subsidy" BOOLEAN,
    "district_operated" BOOLEAN,
    "district_id" UUID,
    "source_url" TEXT,
    "source_version" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "childcare_centers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "childcare_people" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "center_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "role" TEXT,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "childcare_people_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "associations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "short_name" TEXT,
    "kind" TEXT NOT NULL,
    "state" TEXT,
    "parent_association_id" UUID,
    "website_url" TEXT,
    "phone" TEXT,
    "physical_address" TEXT,
    "physical_city" TEXT,
    "physical_zip" TEXT,
    "member_school_count" INTEGER,
    "member_count_source_url" TEXT,
    "source_url" TEXT,
    "verified_at" TIMESTAMPTZ(3),
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "associations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "association_people" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "association_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "redacted" BOOLEAN NOT NULL DEFAULT false,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "association_people_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "articles" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "url" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "domain" TEXT,
    "author" TEXT,
    "description" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data_source" TEXT NOT NULL,
    CONSTRAINT "articles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signals" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "article_id" UUID NOT NULL,
    "signal_type" TEXT NOT NULL,
    "buying_intent" TEXT NOT NULL,
    "buying_intent_reason" TEXT,
    "summary" TEXT,
    "signal_date" DATE,
    "signal_date_confidence" DOUBLE PRECISION,
    "extraction_confidence" DOUBLE PRECISION,
    "evidence" JSONB,
    "payload" JSONB,
    "entity_type" TEXT,
    "entity_resolution_status" TEXT,
    "entity_match_confidence" DOUBLE PRECISION,
    "entity_match_reason" TEXT,
    "district_id" UUID,
    "school_id" UUID,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "opportunities" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "entity_type" TEXT NOT NULL,
    "district_id" UUID,
    "school_id" UUID,
    "geo_scope" TEXT,
    "title" TEXT NOT NULL,
    "signal_type" TEXT,
    "event_date" DATE,
    "event_date_basis" TEXT,
    "why_now" TEXT,
    "suggested_action" TEXT,
    "caveats" TEXT,
    "confidence" DOUBLE PRECISION,
    "source_urls" TEXT[],
    "signal_ids" UUID[],
    "contacts" JSONB,
    "suggested_prompts" TEXT[],
    "supplementary" BOOLEAN NOT NULL DEFAULT false,
    "verification_status" TEXT NOT NULL DEFAULT 'unverified',
    "window_status" TEXT NOT NULL DEFAULT 'unknown',
    "last_verified_at" TIMESTAMPTZ(3),
    "verification_note" TEXT,
    "window_ends_on" DATE,
    "data_source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "opportunities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "opportunity_source_checks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "opportunity_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "note" TEXT,
    "status" TEXT NOT NULL,
    CONSTRAINT "opportunity_source_checks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "follows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "followed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unfollowed_at" TIMESTAMPTZ(3),
    "slot_released_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "follows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "briefs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "dossier" JSONB,
    "job_id" TEXT,
    "error" TEXT,
    "generator" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "briefs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_templates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "embeddings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "url" TEXT,
    "model" TEXT NOT NULL,
    "vector" REAL[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "embeddings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingest_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "source" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "file_sha256" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "summary" JSONB,
    CONSTRAINT "ingest_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" ("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys" ("organization_id");

-- CreateIndex
CREATE INDEX "api_keys_key_prefix_idx" ON "api_keys" ("key_prefix");

-- CreateIndex
CREATE INDEX "projects_organization_id_idx" ON "projects" ("organization_id");

-- CreateIndex
CREATE INDEX "lists_organization_id_idx" ON "lists" ("organization_id");

-- CreateIndex
CREATE INDEX "list_items_entity_id_idx" ON "list_items" ("entity_id");

-- CreateIndex
CREATE INDEX "credit_ledger_organization_id_created_at_idx" ON "credit_ledger" ("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "credit_ledger_hold_id_idx" ON "credit_ledger" ("hold_id");

-- CreateIndex
CREATE INDEX "credit_holds_organization_id_status_idx" ON "credit_holds" ("organization_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "unlocks_organization_id_entity_type_entity_id_key" ON "unlocks" ("organization_id", "entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "unlocks_entity_type_entity_id_idx" ON "unlocks" ("entity_type", "entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "districts_fed_id_key" ON "districts" ("fed_id");

-- CreateIndex
CREATE INDEX "districts_state_name_idx" ON "districts" ("state", "name");

-- CreateIndex
CREATE INDEX "districts_name_trgm_idx" ON "districts" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "districts_county_trgm_idx" ON "districts" USING GIN ("county" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "districts_grade_levels_idx" ON "districts" USING GIN ("grade_levels");

-- CreateIndex
CREATE INDEX "districts_status_idx" ON "districts" ("status");

-- CreateIndex
CREATE INDEX "districts_student_count_idx" ON "districts" ("student_count");

-- CreateIndex
CREATE INDEX "districts_school_count_idx" ON "districts" ("school_count");

-- CreateIndex
CREATE INDEX "districts_revenue_per_student_idx" ON "districts" ("revenue_per_student");

-- CreateIndex
CREATE INDEX "districts_expenditures_per_student_idx" ON "districts" ("expenditures_per_student");

-- CreateIndex
CREATE INDEX "districts_student_teacher_ratio_idx" ON "districts" ("student_teacher_ratio");

-- CreateIndex
CREATE INDEX "districts_total_staff_idx" ON "districts" ("total_staff");

-- CreateIndex
CREATE INDEX "districts_locale_type_idx" ON "districts" ("locale_type");

-- CreateIndex
CREATE INDEX "districts_district_type_idx" ON "districts" ("district_type");

-- CreateIndex
CREATE INDEX "districts_created_at_idx" ON "districts" ("created_at");

-- CreateIndex
CREATE INDEX "districts_last_updated_at_idx" ON "districts" ("last_updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "schools_fed_id_key" ON "schools" ("fed_id");

-- CreateIndex
CREATE INDEX "schools_district_id_idx" ON "schools" ("district_id");

-- CreateIndex
CREATE INDEX "schools_district_fed_id_idx" ON "schools" ("district_fed_id");

-- CreateIndex
CREATE INDEX "schools_state_name_idx" ON "schools" ("state", "name");

-- CreateIndex
CREATE INDEX "schools_name_trgm_idx" ON "schools" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "schools_county_trgm_idx" ON "schools" USING GIN ("county" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "schools_grade_buckets_idx" ON "schools" USING GIN ("grade_buckets");

-- CreateIndex
CREATE INDEX "schools_status_idx" ON "schools" ("status");

-- CreateIndex
CREATE INDEX "schools_student_count_idx" ON "schools" ("student_count");

-- CreateIndex
CREATE INDEX "schools_student_teacher_ratio_idx" ON "schools" ("student_teacher_ratio");

-- CreateIndex
CREATE INDEX "schools_school_type_idx" ON "schools" ("school_type");

-- CreateIndex
CREATE INDEX "schools_locale_type_idx" ON "schools" ("locale_type");

-- CreateIndex
CREATE INDEX "schools_created_at_idx" ON "schools" ("created_at");

-- CreateIndex
CREATE INDEX "schools_last_updated_at_idx" ON "schools" ("last_updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "district_annual_stats_district_id_school_year_start_key" ON "district_annual_stats" ("district_id", "school_year_start");

-- CreateIndex
CREATE INDEX "district_annual_stats_school_year_start_district_id_idx" ON "district_annual_stats" ("school_year_start", "district_id");

-- CreateIndex
CREATE UNIQUE INDEX "school_annual_stats_school_id_school_year_start_key" ON "school_annual_stats" ("school_id", "school_year_start");

-- CreateIndex
CREATE INDEX "school_annual_stats_school_year_start_school_id_idx" ON "school_annual_stats" ("school_year_start", "school_id");

-- CreateIndex
CREATE UNIQUE INDEX "district_stat_breakdowns_district_id_breakdown_key_school_year_" ON "district_stat_breakdowns" ("district_id", "breakdown_key", "school_year_start", "category", "subgroup");

-- CreateIndex
CREATE UNIQUE INDEX "school_stat_breakdowns_school_id_breakdown_key_school_year_star" ON "school_stat_breakdowns" ("school_id", "breakdown_key", "school_year_start", "category", "subgroup");

-- CreateIndex
CREATE UNIQUE INDEX "special_education_finance_district_id_fiscal_year_key" ON "special_education_finance" ("district_id", "fiscal_year");

-- CreateIndex
CREATE UNIQUE INDEX "assessment_summaries_district_id_source_id_school_year_key" ON "assessment_summaries" ("district_id", "source_id", "school_year");

-- CreateIndex
CREATE UNIQUE INDEX "assessment_summaries_school_id_source_id_school_year_key" ON "assessment_summaries" ("school_id", "source_id", "school_year");

-- CreateIndex
CREATE INDEX "assessment_summaries_school_year_idx" ON "assessment_summaries" ("school_year");

-- CreateIndex
CREATE INDEX "assessment_grade_rows_district_id_school_year_idx" ON "assessment_grade_rows" ("district_id", "school_year");

-- CreateIndex
CREATE INDEX "assessment_grade_rows_school_id_school_year_idx" ON "assessment_grade_rows" ("school_id", "school_year");

-- CreateIndex
CREATE INDEX "assessment_state_rows_state_school_year_idx" ON "assessment_state_rows" ("state", "school_year");

-- CreateIndex
CREATE UNIQUE INDEX "vendors_name_key" ON "vendors" ("name");

-- CreateIndex
CREATE INDEX "vendors_category_idx" ON "vendors" ("category");

-- CreateIndex
CREATE INDEX "entity_vendors_district_id_idx" ON "entity_vendors" ("district_id");

-- CreateIndex
CREATE INDEX "entity_vendors_school_id_idx" ON "entity_vendors" ("school_id");

-- CreateIndex
CREATE INDEX "entity_vendors_vendor_id_idx" ON "entity_vendors" ("vendor_id");

-- CreateIndex
CREATE INDEX "pain_points_district_id_idx" ON "pain_points" ("district_id");

-- CreateIndex
CREATE INDEX "pain_points_school_id_idx" ON "pain_points" ("school_id");

-- CreateIndex
CREATE INDEX "pain_points_category_idx" ON "pain_points" ("category");

-- CreateIndex
CREATE INDEX "funding_district_id_idx" ON "funding" ("district_id");

-- CreateIndex
CREATE INDEX "funding_school_id_idx" ON "funding" ("school_id");

-- CreateIndex
CREATE INDEX "funding_source_idx" ON "funding" ("source");

-- CreateIndex
CREATE INDEX "contracts_district_id_idx" ON "contracts" ("district_id");

-- CreateIndex
CREATE INDEX "contracts_school_id_idx" ON "contracts" ("school_id");

-- CreateIndex
CREATE INDEX "contracts_expires_on_idx" ON "contracts" ("expires_on");

-- CreateIndex
CREATE INDEX "bids_district_id_idx" ON "bids" ("district_id");

-- CreateIndex
CREATE INDEX "bids_school_id_idx" ON "bids" ("school_id");

-- CreateIndex
CREATE INDEX "bids_status_deadline_at_idx" ON "bids" ("status", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "bid_filings_organization_id_bid_id_key" ON "bid_filings" ("organization_id", "bid_id");

-- CreateIndex
CREATE INDEX "timeline_events_entity_type_entity_id_event_date_idx" ON "timeline_events" ("entity_type", "entity_id", "event_date");

-- CreateIndex
CREATE INDEX "contacts_district_id_idx" ON "contacts" ("district_id");

-- CreateIndex
CREATE INDEX "contacts_school_id_idx" ON "contacts" ("school_id");

-- CreateIndex
CREATE INDEX "contacts_state_idx" ON "contacts" ("state");

-- CreateIndex
CREATE INDEX "contacts_enrichment_status_idx" ON "contacts" ("enrichment_status");

-- CreateIndex
CREATE INDEX "contacts_dedupe_key_idx" ON "contacts" ("dedupe_key");

-- CreateIndex
CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contacts_title_trgm_idx" ON "contacts" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "operators_slug_key" ON "operators" ("slug");

-- CreateIndex
CREATE UNIQUE INDEX "operators_ein_key" ON "operators" ("ein");

-- CreateIndex
CREATE INDEX "operators_normalized_name_idx" ON "operators" ("normalized_name");

-- CreateIndex
CREATE INDEX "operators_name_trgm_idx" ON "operators" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "operators_state_idx" ON "operators" ("state");

-- CreateIndex
CREATE INDEX "operators_kind_idx" ON "operators" ("kind");

-- CreateIndex
CREATE INDEX "operators_chain_key_idx" ON "operators" ("chain_key");

-- CreateIndex
CREATE INDEX "operators_merged_into_id_idx" ON "operators" ("merged_into_id");

-- CreateIndex
CREATE UNIQUE INDEX "operator_filings_object_id_key" ON "operator_filings" ("object_id");

-- CreateIndex
CREATE INDEX "operator_filings_operator_id_tax_period_idx" ON "operator_filings" ("operator_id", "tax_period");

-- CreateIndex
CREATE INDEX "contractor_payments_filing_id_idx" ON "contractor_payments" ("filing_id");

-- CreateIndex
CREATE INDEX "contractor_payments_name_trgm_idx" ON "contractor_payments" USING GIN ("normalized_name" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "head_start_programs_slug_key" ON "head_start_programs" ("slug");

-- CreateIndex
CREATE UNIQUE INDEX "head_start_programs_source_key_key" ON "head_start_programs" ("source_key");

-- CreateIndex
CREATE INDEX "head_start_programs_grant_number_idx" ON "head_start_programs" ("grant_number");

-- CreateIndex
CREATE INDEX "head_start_programs_state_name_idx" ON "head_start_programs" ("state", "name");

-- CreateIndex
CREATE INDEX "head_start_programs_operator_id_idx" ON "head_start_programs" ("operator_id");

-- CreateIndex
CREATE INDEX "head_start_programs_parent_program_id_idx" ON "head_start_programs" ("parent_program_id");

-- CreateIndex
CREATE INDEX "head_start_programs_district_id_idx" ON "head_start_programs" ("district_id");

-- CreateIndex
CREATE INDEX "head_start_programs_program_types_idx" ON "head_start_programs" USING GIN ("program_types");

-- CreateIndex
CREATE INDEX "head_start_programs_name_trgm_idx" ON "head_start_programs" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "childcare_centers_slug_key" ON "childcare_centers" ("slug");

-- CreateIndex
CREATE UNIQUE INDEX "childcare_centers_source_key_key" ON "childcare_centers" ("source_key");

-- CreateIndex
CREATE INDEX "childcare_centers_state_name_idx" ON "childcare_centers" ("state", "name");

-- CreateIndex
CREATE INDEX "childcare_centers_county_idx" ON "childcare_centers" ("county");

-- CreateIndex
CREATE INDEX "childcare_centers_physical_city_idx" ON "childcare_centers" ("physical_city");

-- CreateIndex
CREATE INDEX "childcare_centers_license_type_idx" ON "childcare_centers" ("license_type");

-- CreateIndex
CREATE INDEX "childcare_centers_license_status_idx" ON "childcare_centers" ("license_status");

-- CreateIndex
CREATE INDEX "childcare_centers_capacity_idx" ON "childcare_centers" ("capacity");

-- CreateIndex
CREATE INDEX "childcare_centers_chain_idx" ON "childcare_centers" ("chain");

-- CreateIndex
CREATE INDEX "childcare_centers_operator_id_idx" ON "childcare_centers" ("operator_id");

-- CreateIndex
CREATE INDEX "childcare_centers_name_trgm_idx" ON "childcare_centers" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "childcare_centers_licensee_trgm_idx" ON "childcare_centers" USING GIN ("licensee_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "childcare_people_center_id_idx" ON "childcare_people" ("center_id");

-- CreateIndex
CREATE UNIQUE INDEX "associations_slug_key" ON "associations" ("slug");

-- CreateIndex
CREATE INDEX "associations_state_idx" ON "associations" ("state");

-- CreateIndex
CREATE INDEX "associations_kind_idx" ON "associations" ("kind");

-- CreateIndex
CREATE INDEX "associations_parent_association_id_idx" ON "associations" ("parent_association_id");

-- CreateIndex
CREATE INDEX "associations_name_trgm_idx" ON "associations" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "association_people_association_id_idx" ON "association_people" ("association_id");

-- CreateIndex
CREATE UNIQUE INDEX "articles_url_key" ON "articles" ("url");

-- CreateIndex
CREATE INDEX "articles_published_at_id_idx" ON "articles" ("published_at" DESC, "id");

-- CreateIndex
CREATE INDEX "articles_ingested_at_idx" ON "articles" ("ingested_at");

-- CreateIndex
CREATE INDEX "signals_article_id_idx" ON "signals" ("article_id");

-- CreateIndex
CREATE INDEX "signals_district_id_idx" ON "signals" ("district_id");

-- CreateIndex
CREATE INDEX "signals_school_id_idx" ON "signals" ("school_id");

-- CreateIndex
CREATE INDEX "signals_signal_type_idx" ON "signals" ("signal_type");

-- CreateIndex
CREATE INDEX "opportunities_organization_id_project_id_idx" ON "opportunities" ("organization_id", "project_id");

-- CreateIndex
CREATE INDEX "opportunity_source_checks_opportunity_id_idx" ON "opportunity_source_checks" ("opportunity_id");

-- CreateIndex
CREATE INDEX "follows_organization_id_entity_type_entity_id_idx" ON "follows" ("organization_id", "entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "follows_project_id_idx" ON "follows" ("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "briefs_project_id_entity_type_entity_id_key" ON "briefs" ("project_id", "entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "email_templates_organization_id_idx" ON "email_templates" ("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "embeddings_entity_type_entity_id_source_type_source_id_model_ke" ON "embeddings" ("entity_type", "entity_id", "source_type", "source_id", "model");

-- CreateIndex
CREATE INDEX "ingest_runs_source_started_at_idx" ON "ingest_runs" ("source", "started_at");
