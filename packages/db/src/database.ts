import type { AddonDeliveryTable, AddonTable } from "./tables/addon.table.ts";
import type { ApiTokenTable } from "./tables/api-token.table.ts";
import type { BannerTable } from "./tables/banner.table.ts";
import type {
  ChangeRequestChangeTable,
  ChangeRequestReviewTable,
  ChangeRequestSettingTable,
  ChangeRequestTable,
} from "./tables/change-request.table.ts";
import type { EnvironmentTable } from "./tables/environment.table.ts";
import type { EventTable } from "./tables/event.table.ts";
import type { GroupTable, GroupUserTable } from "./tables/group.table.ts";
import type { FeatureEnvironmentTable, FeatureLifecycleTable, FeatureTable, FeatureTypeTable } from "./tables/feature.table.ts";
import type { FeatureTagTable, TagTable, TagTypeTable } from "./tables/tag.table.ts";
import type { ContextFieldTable } from "./tables/context-field.table.ts";
import type { LoginFailureTable, LoginStreakTable } from "./tables/login-failure.table.ts";
import type { OidcLoginTable } from "./tables/oidc-login.table.ts";
import type { ProjectEnvironmentTable, ProjectTable } from "./tables/project.table.ts";
import type { GroupRoleTable, RoleUserTable } from "./tables/project-role.table.ts";
import type { SessionTable } from "./tables/session.table.ts";
import type { UserTable } from "./tables/user.table.ts";
import type { FeatureStrategySegmentTable, FeatureStrategyTable, StrategyTypeTable } from "./tables/strategy.table.ts";
import type { SegmentTable } from "./tables/segment.table.ts";
import type { FeatureDependencyTable } from "./tables/feature-dependency.table.ts";
import type {
  ClientInstanceTable,
  ClientMetricDailyTable,
  ClientMetricTable,
  ClientMetricVariantDailyTable,
  ClientMetricVariantTable,
  UnknownFlagTable,
} from "./tables/client-metrics.table.ts";

/** Every table Vexil keeps, as Kysely sees it. Columns are snake_case in SQL and here. */
export interface Database {
  environments: EnvironmentTable;
  projects: ProjectTable;
  project_environments: ProjectEnvironmentTable;
  events: EventTable;
  features: FeatureTable;
  feature_environments: FeatureEnvironmentTable;
  banners: BannerTable;
  users: UserTable;
  sessions: SessionTable;
  api_tokens: ApiTokenTable;
  login_failures: LoginFailureTable;
  login_streaks: LoginStreakTable;
  oidc_logins: OidcLoginTable;
  change_request_settings: ChangeRequestSettingTable;
  change_requests: ChangeRequestTable;
  change_request_changes: ChangeRequestChangeTable;
  change_request_reviews: ChangeRequestReviewTable;
  strategy_types: StrategyTypeTable;
  feature_strategies: FeatureStrategyTable;
  feature_strategy_segments: FeatureStrategySegmentTable;
  segments: SegmentTable;
  feature_dependencies: FeatureDependencyTable;
  client_instances: ClientInstanceTable;
  client_metrics: ClientMetricTable;
  client_metric_variants: ClientMetricVariantTable;
  client_metrics_daily: ClientMetricDailyTable;
  client_metric_variants_daily: ClientMetricVariantDailyTable;
  unknown_flags: UnknownFlagTable;
  feature_types: FeatureTypeTable;
  feature_lifecycles: FeatureLifecycleTable;
  tag_types: TagTypeTable;
  context_fields: ContextFieldTable;
  tags: TagTable;
  feature_tags: FeatureTagTable;
  addons: AddonTable;
  addon_deliveries: AddonDeliveryTable;
  groups: GroupTable;
  group_users: GroupUserTable;
  role_user: RoleUserTable;
  group_role: GroupRoleTable;
}
