// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* CUnit runner: every suite, basic mode; the exit status counts failures. */
#include <stdio.h>
#include <stdlib.h>
#include <CUnit/Basic.h>
#include "suites.h"

int hk_add_suite(const char *name, const struct hk_unit_test *tests, size_t n)
{
	CU_pSuite suite = CU_add_suite(name, NULL, NULL);
	size_t i;

	if (!suite)
		return -1;
	for (i = 0; i < n; i++)
		if (!CU_add_test(suite, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}

int main(void)
{
	unsigned int failures;

	/* times in the formatting tests are in UTC whatever the host says */
	setenv("TZ", "UTC", 1);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (hk_add_config_units_suite() || hk_add_config_suite() ||
	    hk_add_config_errors_suite() || hk_add_config_generate_suite() ||
	    hk_add_config_filter_suite() ||
	    hk_add_format_suite() || hk_add_format_json_suite() ||
	    hk_add_format_hostile_suite() || hk_add_window_step_suite() ||
	    hk_add_prometheus_suite() ||
	    hk_add_classify_suite() || hk_add_oom_risk_suite() ||
	    hk_add_status_suite() || hk_add_npd_suite() || hk_add_freeze_suite() || hk_add_freeze_state_suite() ||
	    hk_add_freeze_blame_suite() || hk_add_mem_blame_suite() ||
	    hk_add_freeze_hand_suite() ||
	    hk_add_delayacct_suite() || hk_add_safefile_suite() || hk_add_service_suite() ||
	    hk_add_cgroup_parse_suite() || hk_add_workload_suite() || hk_add_shares_suite() ||
	    hk_add_cgroup_id_suite() || hk_add_oom_kill_suite() || hk_add_linelimit_suite() ||
	    hk_add_journal_suite() || hk_add_postmortem_suite() ||
	    hk_add_symbolize_suite() || hk_add_symbolize_caps_suite() ||
	    hk_add_worker_suite() || hk_add_sandbox_suite() || hk_add_flamegraph_suite() ||
	    hk_add_flame_svg_suite() || hk_add_flame_caps_suite() || hk_add_leaf_suite() ||
	    hk_add_self_cost_suite() || hk_add_budget_suite() ||
	    hk_add_preflight_jit_suite() ||
	    hk_add_sysinfo_suite() ||
	    hk_add_mem_stall_suite() || hk_add_pindir_suite() ||
	    hk_add_metrics_listen_suite() || hk_add_metrics_http_suite() ||
	    hk_add_stall_suite()) {
		fprintf(stderr, "unit: cannot register suites: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	/* CU_get_error() is 0 even when assertions failed */
	failures = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
