/**
 * The migrations, in order. Listing them here (rather than globbing a folder) makes them work
 * the same under tsx, in a bundle and in tests. Add a new file and its line; never edit a
 * migration that has shipped.
 */
import type { Knex } from 'knex';
import * as createUsers from './20261121000100_create_users';
import * as createSessions from './20261121000200_create_sessions';
import * as createPasswordResets from './20261121000300_create_password_resets';
import * as createCreditTransactions from './20261121000400_create_credit_transactions';
import * as createAuditLog from './20261121000500_create_audit_log';
import * as createRateLimits from './20261121000600_create_rate_limits';
import * as createPriceDefaults from './20261121000700_create_price_defaults';
import * as seedPriceDefaults from './20261121000800_seed_price_defaults';
import * as addPricingModeToUsers from './20261121000900_add_pricing_mode_to_users';
import * as createUserPrices from './20261121001000_create_user_prices';
import * as createPayments from './20261121001100_create_payments';
import * as createTemplates from './20261121001200_create_templates';
import * as createWhatsappNumbers from './20261121001300_create_whatsapp_numbers';
import * as createCampaigns from './20261121001400_create_campaigns';
import * as createMessages from './20261121001500_create_messages';
import * as createSuppressions from './20261121001600_create_suppressions';
import * as recordSuppressionSource from './20261214500100_record_suppression_source';
import * as backfillSuppressionSource from './20261214500200_backfill_suppression_source';
import * as addOptOutKeywordsToUsers from './20261214500300_add_opt_out_keywords_to_users';
import * as createReplyFlags from './20261214500400_create_reply_flags';
import * as addHeaderMediaToCampaigns from './20261121002000_add_header_media_to_campaigns';
import * as createStatusEvents from './20261121002010_create_status_events';
import * as addRefundedUnitsToCampaigns from './20261121002030_add_refunded_units_to_campaigns';
import * as createBusinessInfos from './20261121002100_create_business_infos';
import * as createProviderSettings from './20261121002110_create_provider_settings';
import * as widenWhatsappNumberIds from './20261121002120_widen_whatsapp_number_ids';
import * as createApiKeys from './20261121002200_create_api_keys';
import * as binaryCollationForDedupeKeys from './20261121002040_binary_collation_for_dedupe_keys';
import * as indexRecentCampaignsByTemplate from './20261121002050_index_recent_campaigns_by_template';
import * as addCancelledCountToCampaigns from './20261121002300_add_cancelled_count_to_campaigns';
import * as extendMessagesUserCreatedIndex from './20261121003000_extend_messages_user_created_index';
import * as addMessagesReportStatusIndex from './20261121003010_add_messages_report_status_index';
import * as addMessagesUserRecipientIndex from './20261121003020_add_messages_user_recipient_index';
import * as addCampaignsUserTemplateIndex from './20261121003030_add_campaigns_user_template_index';
import * as allowCancelledMessageStatus from './20261124100100_allow_cancelled_message_status';
import * as markCancelledMessages from './20261124100200_mark_cancelled_messages';
import * as addResentCampaignToCampaigns from './20261124100300_add_resent_campaign_to_campaigns';
import * as keyTemplateExamplesByComponent from './20261124100400_key_template_examples_by_component';
import * as scopeStatusEvents from './20261124110100_scope_status_events';
import * as uniqueProviderAccountIds from './20261124110200_unique_provider_account_ids';
import * as addMessagesClaimToken from './20261124120100_add_messages_claim_token';
import * as allowMessagesUnknownStatus from './20261124120110_allow_messages_unknown_status';
import * as addStatusEventsCallbackData from './20261124120120_add_status_events_callback_data';
import * as indexStatusEventsCallbackData from './20261124120130_index_status_events_callback_data';
import * as createMessageDailyTotals from './20261124140100_create_message_daily_totals';
import * as createLogCleanupRuns from './20261124140200_create_log_cleanup_runs';
import * as indexOldLogs from './20261124140300_index_old_logs';
import * as createNotifications from './20261124140400_create_notifications';
import * as countUnknownAsPendingInReportIndex from './20261125140100_count_unknown_as_pending_in_report_index';
import * as addNotificationSettingsToUsers from './20261124140500_add_notification_settings_to_users';
import * as createUserDevices from './20261125110000_create_user_devices';
import * as createIdempotencyKeys from './20261125150100_create_idempotency_keys';
import * as createWebhookEndpoints from './20261125150200_create_webhook_endpoints';
import * as createWebhookOutbox from './20261125150300_create_webhook_outbox';
import * as createWebhookDeliveries from './20261125150400_create_webhook_deliveries';
import * as createWebhookAttempts from './20261125150500_create_webhook_attempts';
import * as addScheduleToCampaigns from './20261126100100_add_schedule_to_campaigns';
import * as addFailureReasonToCampaigns from './20261126100200_add_failure_reason_to_campaigns';
import * as allowScheduledAndFailedCampaignStatus from './20261126100300_allow_scheduled_and_failed_campaign_status';
import * as createUploads from './20261127100100_create_uploads';
import * as addBillingIdentityToUsers from './20261201100000_add_billing_identity_to_users';
import * as addOnboardingDismissedToUsers from './20261201200100_add_onboarding_dismissed_to_users';
import * as skipNullProviderIdsInUniqueIndex from './20261201300100_skip_null_provider_ids_in_unique_index';
import * as indexDedupeKeysAlone from './20261202100100_index_dedupe_keys_alone';
import * as dropMessagesDedupeIndex from './20261203100100_drop_messages_dedupe_index';
import * as createCampaignRecipients from './20261204100100_create_campaign_recipients';
import * as addStagedRecipientsToCampaigns from './20261204100200_add_staged_recipients_to_campaigns';
import * as createRecipientNumbers from './20261205100100_create_recipient_numbers';
import * as indexRecipientNumbersByTrigram from './20261205100200_index_recipient_numbers_by_trigram';
import * as createRecipientNumbersPending from './20261205100300_create_recipient_numbers_pending';
import * as rememberRecipientNumbers from './20261205100400_remember_recipient_numbers';
import * as createRecipientSearchProgress from './20261206100100_create_recipient_search_progress';
import * as indexMessageRecipientsByTrigram from './20261206100200_index_message_recipients_by_trigram';
import * as forgetDeletedMessageRecipients from './20261206100300_forget_deleted_message_recipients';
import * as reserveMessageIdsForStagedRecipients from './20261207100100_reserve_message_ids_for_staged_recipients';
import * as createAcceptMessagesGuard from './20261208100100_create_accept_messages_guard';
import * as indexOnlyOpenMessagesForDispatch from './20261209100100_index_only_open_messages_for_dispatch';
import * as addCampaignIdToNotifications from './20261210400100_add_campaign_id_to_notifications';
import * as groupApiSendsByKeyAndDay from './20261210400200_group_api_sends_by_key_and_day';
import * as recordMetaTemplateStatus from './20261211100100_record_meta_template_status';
import * as recordTemplatePauseInfo from './20261211100200_record_template_pause_info';
import * as recordTemplateQualityTime from './20261211100300_record_template_quality_time';
import * as indexTemplatesByProviderTemplateId from './20261211100400_index_templates_by_provider_template_id';
import * as createWebhookUnknownEvents from './20261211100500_create_webhook_unknown_events';
import * as createTemplateSyncRuns from './20261212200100_create_template_sync_runs';
import * as recordTemplateImportTime from './20261212200200_record_template_import_time';
import * as recordTemplateSubmissionToMeta from './20261212100100_record_template_submission_to_meta';
import * as indexTemplatesByMetaSubmitDue from './20261212100200_index_templates_by_meta_submit_due';
import * as recordCampaignHoldReason from './20261212300100_record_campaign_hold_reason';
import * as recordSenderStopOnNumbers from './20261213200100_record_sender_stop_on_numbers';
import * as recordMetaErrorFieldsOnMessages from './20261213200200_record_meta_error_fields_on_messages';
import * as recordMetaErrorOnStatusEvents from './20261213200300_record_meta_error_on_status_events';
import * as recordCampaignHeaderMediaName from './20261213100100_record_campaign_header_media_name';
import * as recordNumberHealth from './20261213300100_record_number_health';
import * as recordMetaPricingOnMessages from './20261213300200_record_meta_pricing_on_messages';
import * as carryPricingOnStatusEvents from './20261213300300_carry_pricing_on_status_events';
import * as createConversationMessages from './20261214400100_create_conversation_messages';
import * as createConversations from './20261214400200_create_conversations';
import * as addServicePrice from './20261214400300_add_service_price';
import * as createContacts from './20261214600100_create_contacts';
import * as dropContactTagsForeignKeys from './20261215500100_drop_contact_tags_foreign_keys';
import * as createContactAttributes from './20261214600200_create_contact_attributes';
import * as createContactTags from './20261214600400_create_contact_tags';
import * as createSegments from './20261214600500_create_segments';
import * as recordSegmentOnCampaigns from './20261214600600_record_segment_on_campaigns';
import * as addReplyEffectToConversationMessages from './20261215100000_add_reply_effect_to_conversation_messages';
import * as recordContactProgressOnCampaigns from './20261215400100_record_contact_progress_on_campaigns';
import * as addTaxToPayments from './20261215600100_add_tax_to_payments';
import * as createTaxDocuments from './20261215600200_create_tax_documents';
import * as createTaxDocumentCounters from './20261215600300_create_tax_document_counters';
import * as createWhatsappConnections from './20261215700000_create_whatsapp_connections';
import * as createAccounts from './20261215800100_create_accounts';
import * as backfillAccountOwners from './20261215800200_backfill_account_owners';
import * as createTeamInvites from './20261215800300_create_team_invites';
import * as addAccountToSessions from './20261215800400_add_account_to_sessions';
import * as recordActorOnAccountActions from './20261215800500_record_actor_on_account_actions';
import * as createPaymentRefunds from './20261216200100_create_payment_refunds';
import * as addBillingAddressToUsers from './20261216200200_add_billing_address_to_users';
import * as addBuyerAddressToTaxDocuments from './20261216200300_add_buyer_address_to_tax_documents';
import * as addDeliveryToTeamInvites from './20261217100100_add_delivery_to_team_invites';
import * as recordActorOnPaymentsAndUploads from './20261217100200_record_actor_on_payments_and_uploads';
import * as recordContactAttributesOnCampaigns from './20261216100000_record_contact_attributes_on_campaigns';
import * as addTagListToContacts from './20261217400100_add_tag_list_to_contacts';
import * as campaignsTemplateIndexWithoutCounts from './20261218100100_campaigns_template_index_without_counts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: [string, Migration][] = [
  ['20261121000100_create_users', createUsers],
  ['20261121000200_create_sessions', createSessions],
  ['20261121000300_create_password_resets', createPasswordResets],
  ['20261121000400_create_credit_transactions', createCreditTransactions],
  ['20261121000500_create_audit_log', createAuditLog],
  ['20261121000600_create_rate_limits', createRateLimits],
  ['20261121000700_create_price_defaults', createPriceDefaults],
  ['20261121000800_seed_price_defaults', seedPriceDefaults],
  ['20261121000900_add_pricing_mode_to_users', addPricingModeToUsers],
  ['20261121001000_create_user_prices', createUserPrices],
  ['20261121001100_create_payments', createPayments],
  ['20261121001200_create_templates', createTemplates],
  ['20261121001300_create_whatsapp_numbers', createWhatsappNumbers],
  ['20261121001400_create_campaigns', createCampaigns],
  ['20261121001500_create_messages', createMessages],
  ['20261121001600_create_suppressions', createSuppressions],
  ['20261121002000_add_header_media_to_campaigns', addHeaderMediaToCampaigns],
  ['20261121002010_create_status_events', createStatusEvents],
  ['20261121002030_add_refunded_units_to_campaigns', addRefundedUnitsToCampaigns],
  ['20261121002040_binary_collation_for_dedupe_keys', binaryCollationForDedupeKeys],
  ['20261121002050_index_recent_campaigns_by_template', indexRecentCampaignsByTemplate],
  ['20261121002100_create_business_infos', createBusinessInfos],
  ['20261121002110_create_provider_settings', createProviderSettings],
  ['20261121002120_widen_whatsapp_number_ids', widenWhatsappNumberIds],
  ['20261121002200_create_api_keys', createApiKeys],
  ['20261121002300_add_cancelled_count_to_campaigns', addCancelledCountToCampaigns],
  ['20261121003000_extend_messages_user_created_index', extendMessagesUserCreatedIndex],
  ['20261121003010_add_messages_report_status_index', addMessagesReportStatusIndex],
  ['20261121003020_add_messages_user_recipient_index', addMessagesUserRecipientIndex],
  ['20261121003030_add_campaigns_user_template_index', addCampaignsUserTemplateIndex],
  ['20261124100100_allow_cancelled_message_status', allowCancelledMessageStatus],
  ['20261124100200_mark_cancelled_messages', markCancelledMessages],
  ['20261124100300_add_resent_campaign_to_campaigns', addResentCampaignToCampaigns],
  ['20261124100400_key_template_examples_by_component', keyTemplateExamplesByComponent],
  ['20261124110100_scope_status_events', scopeStatusEvents],
  ['20261124110200_unique_provider_account_ids', uniqueProviderAccountIds],
  ['20261124120100_add_messages_claim_token', addMessagesClaimToken],
  ['20261124120110_allow_messages_unknown_status', allowMessagesUnknownStatus],
  ['20261124120120_add_status_events_callback_data', addStatusEventsCallbackData],
  ['20261124120130_index_status_events_callback_data', indexStatusEventsCallbackData],
  ['20261124140100_create_message_daily_totals', createMessageDailyTotals],
  ['20261124140200_create_log_cleanup_runs', createLogCleanupRuns],
  ['20261124140300_index_old_logs', indexOldLogs],
  ['20261124140400_create_notifications', createNotifications],
  ['20261124140500_add_notification_settings_to_users', addNotificationSettingsToUsers],
  ['20261125110000_create_user_devices', createUserDevices],
  ['20261125140100_count_unknown_as_pending_in_report_index', countUnknownAsPendingInReportIndex],
  ['20261125150100_create_idempotency_keys', createIdempotencyKeys],
  ['20261125150200_create_webhook_endpoints', createWebhookEndpoints],
  ['20261125150300_create_webhook_outbox', createWebhookOutbox],
  ['20261125150400_create_webhook_deliveries', createWebhookDeliveries],
  ['20261125150500_create_webhook_attempts', createWebhookAttempts],
  ['20261126100100_add_schedule_to_campaigns', addScheduleToCampaigns],
  ['20261126100200_add_failure_reason_to_campaigns', addFailureReasonToCampaigns],
  ['20261126100300_allow_scheduled_and_failed_campaign_status', allowScheduledAndFailedCampaignStatus],
  ['20261127100100_create_uploads', createUploads],
  ['20261201100000_add_billing_identity_to_users', addBillingIdentityToUsers],
  ['20261201200100_add_onboarding_dismissed_to_users', addOnboardingDismissedToUsers],
  ['20261201300100_skip_null_provider_ids_in_unique_index', skipNullProviderIdsInUniqueIndex],
  ['20261202100100_index_dedupe_keys_alone', indexDedupeKeysAlone],
  ['20261203100100_drop_messages_dedupe_index', dropMessagesDedupeIndex],
  ['20261204100100_create_campaign_recipients', createCampaignRecipients],
  ['20261204100200_add_staged_recipients_to_campaigns', addStagedRecipientsToCampaigns],
  ['20261205100100_create_recipient_numbers', createRecipientNumbers],
  ['20261205100200_index_recipient_numbers_by_trigram', indexRecipientNumbersByTrigram],
  ['20261205100300_create_recipient_numbers_pending', createRecipientNumbersPending],
  ['20261205100400_remember_recipient_numbers', rememberRecipientNumbers],
  ['20261206100100_create_recipient_search_progress', createRecipientSearchProgress],
  ['20261206100200_index_message_recipients_by_trigram', indexMessageRecipientsByTrigram],
  ['20261206100300_forget_deleted_message_recipients', forgetDeletedMessageRecipients],
  ['20261207100100_reserve_message_ids_for_staged_recipients', reserveMessageIdsForStagedRecipients],
  ['20261208100100_create_accept_messages_guard', createAcceptMessagesGuard],
  ['20261209100100_index_only_open_messages_for_dispatch', indexOnlyOpenMessagesForDispatch],
  ['20261210400100_add_campaign_id_to_notifications', addCampaignIdToNotifications],
  ['20261210400200_group_api_sends_by_key_and_day', groupApiSendsByKeyAndDay],
  ['20261211100100_record_meta_template_status', recordMetaTemplateStatus],
  ['20261211100200_record_template_pause_info', recordTemplatePauseInfo],
  ['20261211100300_record_template_quality_time', recordTemplateQualityTime],
  ['20261211100400_index_templates_by_provider_template_id', indexTemplatesByProviderTemplateId],
  ['20261211100500_create_webhook_unknown_events', createWebhookUnknownEvents],
  ['20261212100100_record_template_submission_to_meta', recordTemplateSubmissionToMeta],
  ['20261212100200_index_templates_by_meta_submit_due', indexTemplatesByMetaSubmitDue],
  ['20261212200100_create_template_sync_runs', createTemplateSyncRuns],
  ['20261212200200_record_template_import_time', recordTemplateImportTime],
  ['20261212300100_record_campaign_hold_reason', recordCampaignHoldReason],
  ['20261213100100_record_campaign_header_media_name', recordCampaignHeaderMediaName],
  ['20261213200100_record_sender_stop_on_numbers', recordSenderStopOnNumbers],
  ['20261213200200_record_meta_error_fields_on_messages', recordMetaErrorFieldsOnMessages],
  ['20261213200300_record_meta_error_on_status_events', recordMetaErrorOnStatusEvents],
  ['20261213300100_record_number_health', recordNumberHealth],
  ['20261213300200_record_meta_pricing_on_messages', recordMetaPricingOnMessages],
  ['20261213300300_carry_pricing_on_status_events', carryPricingOnStatusEvents],
  ['20261214400100_create_conversation_messages', createConversationMessages],
  ['20261214400200_create_conversations', createConversations],
  ['20261214400300_add_service_price', addServicePrice],
  ['20261214500100_record_suppression_source', recordSuppressionSource],
  ['20261214500200_backfill_suppression_source', backfillSuppressionSource],
  ['20261214500300_add_opt_out_keywords_to_users', addOptOutKeywordsToUsers],
  ['20261214500400_create_reply_flags', createReplyFlags],
  ['20261214600100_create_contacts', createContacts],
  ['20261214600200_create_contact_attributes', createContactAttributes],
  ['20261214600400_create_contact_tags', createContactTags],
  ['20261214600500_create_segments', createSegments],
  ['20261214600600_record_segment_on_campaigns', recordSegmentOnCampaigns],
  ['20261215100000_add_reply_effect_to_conversation_messages', addReplyEffectToConversationMessages],
  ['20261215400100_record_contact_progress_on_campaigns', recordContactProgressOnCampaigns],
  ['20261215500100_drop_contact_tags_foreign_keys', dropContactTagsForeignKeys],
  ['20261215600100_add_tax_to_payments', addTaxToPayments],
  ['20261215600200_create_tax_documents', createTaxDocuments],
  ['20261215600300_create_tax_document_counters', createTaxDocumentCounters],
  ['20261215700000_create_whatsapp_connections', createWhatsappConnections],
  ['20261215800100_create_accounts', createAccounts],
  ['20261215800200_backfill_account_owners', backfillAccountOwners],
  ['20261215800300_create_team_invites', createTeamInvites],
  ['20261215800400_add_account_to_sessions', addAccountToSessions],
  ['20261215800500_record_actor_on_account_actions', recordActorOnAccountActions],
  ['20261216100000_record_contact_attributes_on_campaigns', recordContactAttributesOnCampaigns],
  ['20261216200100_create_payment_refunds', createPaymentRefunds],
  ['20261216200200_add_billing_address_to_users', addBillingAddressToUsers],
  ['20261216200300_add_buyer_address_to_tax_documents', addBuyerAddressToTaxDocuments],
  ['20261217100100_add_delivery_to_team_invites', addDeliveryToTeamInvites],
  ['20261217100200_record_actor_on_payments_and_uploads', recordActorOnPaymentsAndUploads],
  ['20261217400100_add_tag_list_to_contacts', addTagListToContacts],
  ['20261218100100_campaigns_template_index_without_counts', campaignsTemplateIndexWithoutCounts],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return found[1];
  },
};

export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
