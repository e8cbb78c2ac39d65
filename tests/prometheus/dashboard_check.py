#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""dashboard_check.py - every PromQL expression of the Grafana dashboard,
for promtool to check.

    dashboard_check.py DASHBOARD.json OUTDIR [--textfile FILE --rules RULES
                                              [--names FILE...]]

Writes OUTDIR/dashboard.rules.yml: each panel query (and the node
variable's metric) as a recording rule, Grafana's variables replaced
($node by .*, $__rate_interval by 5m...): `promtool check rules` then parses
every expression, so a syntax error fails the test.

With --textfile (a file the tool wrote), also OUTDIR/dashboard.test.yml:
fixture series made from that file's samples (counters rising) plus one
process of every label it lists, with every per-process family it declares;
each expression becomes an alert `absent(EXPR)` that must not fire over
them (with RULES loaded for the recorded series the dashboard reads). A
misspelt metric or label, or one the tool no longer writes, leaves a panel
empty, and `promtool test rules` names it. --names: every hotspot_k_* name
in those files (the rules, their unit tests) must be a family of the
textfile, so that neither tests a name the tool does not write. JSON is YAML: both files are
written as JSON. Python 3 standard library only; exit 1 with a line per
problem.
"""
import argparse
import json
import os
import re
import sys

# Grafana's variables as a query inspector would expand them
VARIABLES = [('$__rate_interval', '5m'), ('$__interval', '1m'), ('$__range', '1d'),
             ('${node}', '.*'), ('$node', '.*')]
LABEL_VALUES = re.compile(r'^label_values\(\s*([^,]+?)\s*,\s*\w+\s*\)$')
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)$')
INSTANCE = {'instance': 'node-a:9100', 'job': 'node'}
SERIES_MINUTES = 40
EVAL = '30m'
INFO = 'hotspot_k_process_info'
# per-process counters beside the hotspot_k_process_* gauges, with the
# labels of their own a fixture process gets (a cause at 0 has no sample in
# the tool's file: a short run may have none)
PROC_COUNTERS = {'hotspot_k_stall_seconds_total': {'resource': 'cpu', 'cause': 'neighbor'}}
# a family's name, not a part of a recorded name (level:metric:operations)
NAME = re.compile(r'(?<![\w:])hotspot_k_\w+(?![\w:])')


def panels(items):
    for p in items:
        yield p
        yield from panels(p.get('panels', []))


def expressions(dash):
    """(where, expression) of every query, variables expanded."""
    out = []
    for v in dash.get('templating', {}).get('list', []):
        q = v.get('query')
        q = q.get('query') if isinstance(q, dict) else q
        if v.get('type') == 'query' and q:
            m = LABEL_VALUES.match(q.strip())
            if not m:
                sys.exit('dashboard_check.py: variable %s: %r is not label_values(METRIC, LABEL)' %
                         (v.get('name'), q))
            out.append(('variable %s' % v['name'], m.group(1)))
    for p in panels(dash.get('panels', [])):
        for t in p.get('targets', []):
            if 'expr' in t:
                out.append(('panel %r %s' % (p.get('title'), t.get('refId')), t['expr']))
    problems = []
    for i, (where, e) in enumerate(out):
        for var, val in VARIABLES:
            e = e.replace(var, val)
        if '$' in e:
            problems.append('%s: a variable this check does not know: %s' % (where, e))
        out[i] = (where, e)
    if problems:
        sys.exit('\n'.join(problems))
    return out


def parse_textfile(path):
    """{family: type}, [(name, {label: value}, value)] of a textfile."""
    types, samples = {}, []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('# TYPE '):
                _, _, name, typ = line.split(' ', 3)
                types[name] = typ
                continue
            if not line or line.startswith('#'):
                continue
            m = SAMPLE.match(line)
            if not m:
                sys.exit('dashboard_check.py: %s: not a sample: %r' % (path, line))
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ''))
            samples.append((m.group(1), labels, float(m.group(3))))
    return types, samples


def selector(name, labels):
    body = ','.join('%s="%s"' % (k, v) for k, v in sorted(labels.items()))
    return '%s{%s}' % (name, body)


def fixtures(types, samples):
    """input_series: the file's samples on one node, and a process per label."""
    if not any(n == 'hotspot_k_up' and v == 1 for n, _, v in samples):
        sys.exit('dashboard_check.py: the textfile does not say hotspot_k_up 1: '
                 'it was taken after the tool stopped')
    proc_families = sorted(n for n, t in types.items()
                           if t == 'gauge' and n.startswith('hotspot_k_process_') and n != INFO)
    labels = sorted({l['label'] for n, l, _ in samples if n == 'hotspot_k_processes'})
    if not proc_families or not labels:
        sys.exit('dashboard_check.py: the textfile declares no per-process family or no label')
    series = []
    for name, lab, v in samples:
        if name == 'hotspot_k_processes':
            v += 1  # the fixture process of that label below
        rise = '+1' if types.get(name) == 'counter' else ''
        series.append({'series': selector(name, dict(lab, **INSTANCE)),
                       'values': '%s%sx%d' % (repr(v), rise, SERIES_MINUTES)})
    for i, label in enumerate(labels):
        proc = dict(INSTANCE, pid=str(4194304 + i), comm='fixture-%s' % label)
        for name in proc_families:
            series.append({'series': selector(name, dict(proc, label=label)),
                           'values': '%dx%d' % (i + 1, SERIES_MINUTES)})
        for name, extra in sorted(PROC_COUNTERS.items()):
            if types.get(name) == 'counter':
                series.append({'series': selector(name, dict(proc, label=label, **extra)),
                               'values': '0+%dx%d' % (i + 1, SERIES_MINUTES)})
        info = dict(proc, cgroup='/fixture.slice/%s' % label, unit='fixture.service',
                    container_id='c%d' % i, pod_uid='p%d' % i)
        series.append({'series': selector(INFO, info), 'values': '1x%d' % SERIES_MINUTES})
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dashboard')
    ap.add_argument('outdir')
    ap.add_argument('--textfile')
    ap.add_argument('--rules')
    ap.add_argument('--names', nargs='*', default=[])
    a = ap.parse_args()
    with open(a.dashboard, encoding='utf-8') as f:
        exprs = expressions(json.load(f))
    os.makedirs(a.outdir, exist_ok=True)
    rules = {'groups': [{'name': 'dashboard', 'rules': [
        {'record': 'dashboard:expr_%d' % i, 'expr': e, 'labels': {'panel': where}}
        for i, (where, e) in enumerate(exprs)]}]}
    with open(os.path.join(a.outdir, 'dashboard.rules.yml'), 'w', encoding='utf-8') as f:
        json.dump(rules, f, indent=1)
    print('dashboard: %d expressions' % len(exprs))
    if not a.textfile:
        return
    empty = {'groups': [{'name': 'dashboard-empty', 'rules': [
        {'alert': 'DashboardExprEmpty', 'expr': 'absent(%s)' % e, 'labels': {'panel': where}}
        for where, e in exprs]}]}
    with open(os.path.join(a.outdir, 'dashboard-empty.rules.yml'), 'w', encoding='utf-8') as f:
        json.dump(empty, f, indent=1)
    types, samples = parse_textfile(a.textfile)
    unknown = []
    for path in a.names:
        with open(path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                unknown += ['%s:%d: %s is no family of %s' % (path, no, n, a.textfile)
                            for n in NAME.findall(line.split('#')[0]) if n not in types]
    if unknown:
        sys.exit('\n'.join(unknown))
    test = {'rule_files': [os.path.abspath(a.rules),
                           os.path.abspath(os.path.join(a.outdir, 'dashboard-empty.rules.yml'))],
            'evaluation_interval': '1m',
            # the recording rules before what reads them (else a random order)
            'group_eval_order': ['hotspot-k.records', 'hotspot-k.alerts', 'dashboard-empty'],
            'tests': [{'name': 'dashboard-over-the-tool-s-families', 'interval': '1m',
                       'input_series': fixtures(types, samples),
                       'alert_rule_test': [{'eval_time': EVAL, 'alertname': 'DashboardExprEmpty',
                                            'exp_alerts': []}]}]}
    with open(os.path.join(a.outdir, 'dashboard.test.yml'), 'w', encoding='utf-8') as f:
        json.dump(test, f, indent=1)


if __name__ == '__main__':
    main()
