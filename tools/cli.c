/*
 * The tools' command line (cli.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cli.h"

#include <string.h>

#include "cjpegli_flags.h"
#include "lame_flags.h"

int ct_cli_cjpegli_flag(void *encoder_flags, int argc, char **argv, int *i,
                        char *errbuf, size_t errbuf_size)
{
    return ct_cjpegli_flags_parse(encoder_flags, argc, argv, i, errbuf,
                                  errbuf_size);
}

int ct_cli_lame_flag(void *encoder_flags, int argc, char **argv, int *i,
                     char *errbuf, size_t errbuf_size)
{
    return ct_lame_flags_parse(encoder_flags, argc, argv, i, errbuf,
                               errbuf_size);
}

int ct_cli_parse(const ct_cli *cli, void *encoder_flags, void *tool_flags,
                 ct_cli_args *args, int argc, char **argv)
{
    return ct_cli_parse_extras(cli, NULL, encoder_flags, tool_flags, args, argc,
                               argv);
}

int ct_cli_parse_extras(const ct_cli *cli, const ct_cli_extras *extras,
                        void *encoder_flags, void *tool_flags,
                        ct_cli_args *args, int argc, char **argv)
{
    const ct_cli_extras none = {0};
    const char *positional[2];
    int num_positional = 0;
    char err[256];
    int only_files = 0;
    if (!extras)
        extras = &none;
    args->quiet = 0;
    for (int i = 1; i < argc;) {
        if (!only_files && strcmp(argv[i], "--") == 0) {
            only_files = 1;
            i++;
            continue;
        }
        if (only_files) {
            if (num_positional == 2) {
                fprintf(stderr, "%s: unexpected argument '%s'\n", cli->name,
                        argv[i]);
                return 1;
            }
            positional[num_positional++] = argv[i++];
            continue;
        }
        const int r = cli->parse_encoder_flag(encoder_flags, argc, argv, &i,
                                              err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "%s: %s\n", cli->name, err);
            return 1;
        }
        if (r > 0)
            continue;
        const char *arg = argv[i++];
        const int t = cli->parse_tool_flag(tool_flags, arg, argc, argv, &i);
        if (t < 0)
            return 1;
        if (t > 0)
            continue;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            cli->usage(stdout);
            return 0;
        } else if (strcmp(arg, "--version") == 0) {
            printf("%s (ct) %s\n", cli->name, CT_VERSION);
            return 0;
        } else if (strcmp(arg, "--quiet") == 0) {
            args->quiet = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "%s: unknown flag '%s'\n", cli->name, arg);
            cli->usage(stderr);
            return 1;
        } else if (num_positional < 2) {
            positional[num_positional++] = arg;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", cli->name, arg);
            return 1;
        }
    }
    if (num_positional != 2 &&
        !(extras->output_optional && num_positional == 1)) {
        cli->usage(stderr);
        return 1;
    }
    args->input = positional[0];
    args->output = num_positional == 2 ? positional[1] : NULL;
    return CT_CLI_RUN;
}

int ct_cli_parse_encoder_flags(ct_cli_encoder_flag_fn parse,
                               void *encoder_flags, int first, int argc,
                               char **argv)
{
    char err[512];
    for (int i = first; i < argc;) {
        const int r = parse(encoder_flags, argc, argv, &i, err, sizeof(err));
        if (r == 0)
            snprintf(err, sizeof(err), "unknown flag '%s'", argv[i]);
        if (r <= 0) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
    }
    return 0;
}
