"""A course folder and its records: the folder and the nbgrader commands run on it
(directory), its nbgrader_config.py (config_file, stages, cell_metadata), its assignment ids,
who may reach it (access), deadlines, the secret and draw keys, the kit's ledger under .kit/,
the gradebook's engines and guard, which files of a submission are read, and what an
autograded notebook records and shows (notebook_record, shown_outputs). Imports plumbing,
i18n and checks (the findings a record holds)."""
