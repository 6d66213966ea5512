/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what the rest of probecc uses of the report (report/):
 * the entry point of "probecc report".  Everything else of the report is
 * in report-int.h.
 */
#ifndef PROBECC_REPORT_H
#define PROBECC_REPORT_H

/*
 * "probecc report ..." with argv[0] = "report".  Returns the exit status:
 * 0 every expectation holds, 1 one does not, 2 the dump is no complete
 * evidence (cut short or none), bad usage, an unreadable input (a probe
 * file with errors too) or an unwritable output.
 */
int report_main(int argc, char **argv);

/* Its synopsis ("usage: probecc report DUMP ..."), for probecc --help. */
extern const char report_usage[];

#endif
