/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef HK_TESTS_UNIT_SUITES_H
#define HK_TESTS_UNIT_SUITES_H

#include <stddef.h>
#include <CUnit/CUnit.h>

struct hk_unit_test {
	const char *name;
	CU_TestFunc fn;
};

/* Register one suite of n tests (main.c); 0 on success. */
int hk_add_suite(const char *name, const struct hk_unit_test *tests, size_t n);

#define HK_ADD_SUITE(name, tests) \
	hk_add_suite((name), (tests), sizeof(tests) / sizeof((tests)[0]))

/* Each registers its CUnit suite; 0 on success. */
int hk_add_config_units_suite(void);
int hk_add_config_suite(void);
int hk_add_config_errors_suite(void);
int hk_add_config_generate_suite(void);
int hk_add_config_filter_suite(void);
int hk_add_format_suite(void);
int hk_add_format_json_suite(void);
int hk_add_format_hostile_suite(void);
int hk_add_classify_suite(void);
int hk_add_oom_risk_suite(void);
int hk_add_prometheus_suite(void);
int hk_add_status_suite(void);
int hk_add_npd_suite(void);
int hk_add_window_step_suite(void);
int hk_add_symbolize_suite(void);
int hk_add_symbolize_caps_suite(void);
int hk_add_worker_suite(void);
int hk_add_sandbox_suite(void);
int hk_add_flamegraph_suite(void);
int hk_add_flame_svg_suite(void);
int hk_add_flame_caps_suite(void);
int hk_add_freeze_suite(void);
int hk_add_freeze_state_suite(void);
int hk_add_freeze_blame_suite(void);
int hk_add_mem_blame_suite(void);
int hk_add_freeze_hand_suite(void);
int hk_add_delayacct_suite(void);
int hk_add_safefile_suite(void);
int hk_add_service_suite(void);
int hk_add_cgroup_parse_suite(void);
int hk_add_workload_suite(void);
int hk_add_shares_suite(void);
int hk_add_cgroup_id_suite(void);
int hk_add_oom_kill_suite(void);
int hk_add_postmortem_suite(void);
int hk_add_linelimit_suite(void);
int hk_add_journal_suite(void);
int hk_add_leaf_suite(void);
int hk_add_self_cost_suite(void);
int hk_add_budget_suite(void);
int hk_add_preflight_jit_suite(void);
int hk_add_sysinfo_suite(void);
int hk_add_mem_stall_suite(void);
int hk_add_pindir_suite(void);
int hk_add_metrics_listen_suite(void);
int hk_add_stall_suite(void);
int hk_add_metrics_http_suite(void);

#endif
