/*
 * The command line of ctjpeg and ctlame: INPUT OUTPUT and flags in any
 * order. Each argument goes first to the encoder's flag parser (cjpegli's
 * or lame's flags), then to the tool's own flags, then -h/--help,
 * --version and --quiet; any other argument is one of the two files ("-"
 * for standard input or output, and every argument after "--", as
 * cjpegli). The benches' trailing encoder flags too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_CLI_H
#define CT_TOOLS_CLI_H

#include <stddef.h>
#include <stdio.h>

/* An encoder's flag parser, as ct_cjpegli_flags_parse: 1 when argv[*i]
 * (and its value) was taken and *i advanced past it, 0 when it is some
 * other argument, -1 with a message in errbuf. */
typedef int (*ct_cli_encoder_flag_fn)(void *encoder_flags, int argc,
                                      char **argv, int *i, char *errbuf,
                                      size_t errbuf_size);

/* ct_cjpegli_flags_parse (encoder_flags: a ct_cjpegli_flags) and
 * ct_lame_flags_parse (a ct_lame_flags) as such parsers. */
int ct_cli_cjpegli_flag(void *encoder_flags, int argc, char **argv, int *i,
                        char *errbuf, size_t errbuf_size);
int ct_cli_lame_flag(void *encoder_flags, int argc, char **argv, int *i,
                     char *errbuf, size_t errbuf_size);

/* A tool's command line: its name and its parsers. */
typedef struct ct_cli {
    const char *name; /* "ctjpeg": the prefix of every message */
    void (*usage)(FILE *f);
    ct_cli_encoder_flag_fn parse_encoder_flag;
    /* The tool's own flags: 1 when arg was one (its value, if any, taken
     * from argv[*i] and *i advanced), 0 when not, -1 after printing why
     * its value is invalid. */
    int (*parse_tool_flag)(void *tool_flags, const char *arg, int argc,
                           char **argv, int *i);
} ct_cli;

/* What every tool reads: the two files and --quiet. */
typedef struct ct_cli_args {
    const char *input;
    const char *output;
    int quiet;
} ct_cli_args;

#define CT_CLI_RUN (-1)

/* Reads argv into args and, through cli's parsers, into encoder_flags and
 * tool_flags. Returns CT_CLI_RUN when the tool is to run, else its exit
 * status: 0 after --help (the usage on stdout) or --version ("NAME (ct)
 * VERSION" on stdout), 1 after a message on stderr. */
int ct_cli_parse(const ct_cli *cli, void *encoder_flags, void *tool_flags,
                 ct_cli_args *args, int argc, char **argv);

/* What a tool may take beyond ct_cli_parse's command line. */
typedef struct ct_cli_extras {
    /* the output file may be left out (args->output then NULL), as
     * lame's may */
    int output_optional;
} ct_cli_extras;

/* ct_cli_parse with extras (NULL: none, ct_cli_parse itself). */
int ct_cli_parse_extras(const ct_cli *cli, const ct_cli_extras *extras,
                        void *encoder_flags, void *tool_flags,
                        ct_cli_args *args, int argc, char **argv);

/* The benches' command line ends in encoder flags only: reads argv[first ..
 * argc) with parse. Returns 0, or -1 after the parser's message (or
 * "unknown flag") on stderr. */
int ct_cli_parse_encoder_flags(ct_cli_encoder_flag_fn parse,
                               void *encoder_flags, int first, int argc,
                               char **argv);

#endif
