/* Gathering the JSON summaries of a sweep's runs into one CSV. */
#ifndef WARPSIM_SWEEP_MERGE_H
#define WARPSIM_SWEEP_MERGE_H

/* Reads dir/manifest.tsv and each run's files; writes the CSV to csv_path
 * (stdout when NULL).  Returns the exit status: 0, 1 when some runs failed
 * or never ran, 2 when the sweep cannot be read. */
int sweep_merge(const char *dir, const char *csv_path);

#endif
