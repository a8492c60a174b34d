// Every text the settings page's scripts show (the rest is in
// settings.html), in the interface language: each entry reads the catalog
// when it is drawn, after initI18n().
import { locale, t } from "../common/i18n.js";

export const T = {
  get saved() {
    return t("settings_saved");
  },
  get somethingWrong() {
    return t("settings_something_wrong");
  },
  get editProvider() {
    return t("settings_edit_provider");
  },
  get newProvider() {
    return t("settings_new_provider");
  },
  get edit() {
    return t("settings_edit");
  },
  editLabel: (name) => t("settings_edit_label", { name }),
  get test() {
    return t("settings_test");
  },
  testLabel: (name) => t("settings_test_label", { name }),
  get inUse() {
    return t("settings_in_use");
  },
  get use() {
    return t("settings_use");
  },
  useLabel: (name) => t("settings_use_label", { name }),
  get format() {
    return t("settings_format");
  },
  get model() {
    return t("settings_model");
  },
  get address() {
    return t("settings_address");
  },
  get firstListedModel() {
    return t("settings_first_listed_model");
  },
  get keySaved() {
    return t("settings_key_saved");
  },
  get noKey() {
    return t("settings_no_key");
  },
  get visionBadge() {
    return {
      auto: t("settings_vision_badge_auto"),
      always: t("settings_vision_badge_always"),
      never: t("settings_vision_badge_never"),
    };
  },
  get tierBadge() {
    return {
      compact: t("settings_tier_badge_compact"),
      mid: t("settings_tier_badge_mid"),
      full: t("settings_tier_badge_full"),
    };
  },
  // The API formats are product names: the same in every language.
  kinds: {
    "openai-chat": "OpenAI chat completions",
    "openai-responses": "OpenAI Responses",
    anthropic: "Anthropic Messages",
    azure: "Azure OpenAI",
  },
  get notTested() {
    return t("settings_not_tested");
  },
  get testing() {
    return t("settings_testing");
  },
  testedOk: (model) => `${t("settings_tested_ok")}${model ? ` · ${model}` : ""}`,
  failing: (reason) => t("settings_failing", { reason }),
  when: (ms) => new Date(ms).toLocaleString(locale()),
  get reasons() {
    return {
      no_key: t("settings_reason_no_key"),
      ollama_origins: t("settings_reason_ollama_origins"),
      auth: t("settings_reason_auth"),
      model_not_found: t("settings_reason_model_not_found"),
      not_found: t("settings_reason_not_found"),
      network: t("settings_reason_network"),
      config: t("settings_reason_config"),
      rate_limit: t("settings_reason_rate_limit"),
      server: t("settings_reason_server"),
      other: t("settings_reason_other"),
    };
  },
  connected: (model) => t("settings_connected", { model: model || t("settings_server_default") }),
  get noDecisionModel() {
    return t("settings_no_decision_model");
  },
  get captchaKeySaved() {
    return t("settings_captcha_key_saved");
  },
  maxStepsHelp: (n) => t("settings_max_steps_help", { n }),
  get tierHelp() {
    return {
      compact: t("settings_tier_help_compact"),
      mid: t("settings_tier_help_mid"),
      full: t("settings_tier_help_full"),
    };
  },
  get presetsLocal() {
    return t("settings_presets_local");
  },
  get presetsCloud() {
    return t("settings_presets_cloud");
  },
  exportDone: (name) => t("settings_export_done", { name }),
  notJson: (error) => t("settings_not_json", { error }),
  importFailed: (error, field) =>
    field ? t("settings_import_failed_field", { error, field }) : t("settings_import_failed", { error }),
};
