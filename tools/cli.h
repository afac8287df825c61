/*
 * The command line of ctjpeg and ctlame: INPUT OUTPUT and flags in any
 * order. Each argument goes first to the encoder's flag parser (cjpegli's
 * or lame's flags), then to the tool's own flags, then -h/--help and
 * --quiet; any other argument is one of the two files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_CLI_H
#define CT_TOOLS_CLI_H

#include <stddef.h>
#include <stdio.h>

/* A tool's command line: its name and its parsers. */
typedef struct ct_cli {
    const char *name; /* "ctjpeg": the prefix of every message */
    void (*usage)(FILE *f);
    /* The encoder's flags, as ct_cjpegli_flags_parse: 1 when argv[*i]
     * (and its value) was taken and *i advanced past it, 0 when it is some
     * other argument, -1 with a message in errbuf. */
    int (*parse_encoder_flag)(void *flags, int argc, char **argv, int *i,
                              char *errbuf, size_t errbuf_size);
    /* The tool's own flags: 1 when arg was one (its value, if any, taken
     * from argv[*i] and *i advanced), 0 when not, -1 after printing why
     * its value is invalid. */
    int (*parse_tool_flag)(void *flags, const char *arg, int argc,
                           char **argv, int *i);
} ct_cli;

/* What every tool reads: the two files and --quiet. */
typedef struct ct_cli_args {
    const char *input;
    const char *output;
    int quiet;
} ct_cli_args;

#define CT_CLI_RUN (-1)

/* Reads argv into args and, through cli's parsers, into flags. Returns
 * CT_CLI_RUN when the tool is to run, else its exit status: 0 after --help
 * (the usage on stdout), 1 after a message on stderr. */
int ct_cli_parse(const ct_cli *cli, void *flags, ct_cli_args *args, int argc,
                 char **argv);

#endif
