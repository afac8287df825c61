/*
 * The tools' command line (cli.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cli.h"

#include <string.h>

int ct_cli_parse(const ct_cli *cli, void *flags, ct_cli_args *args, int argc,
                 char **argv)
{
    const char *positional[2];
    int num_positional = 0;
    char err[256];
    args->quiet = 0;
    for (int i = 1; i < argc;) {
        const int r = cli->parse_encoder_flag(flags, argc, argv, &i, err,
                                              sizeof(err));
        if (r < 0) {
            fprintf(stderr, "%s: %s\n", cli->name, err);
            return 1;
        }
        if (r > 0)
            continue;
        const char *arg = argv[i++];
        const int t = cli->parse_tool_flag(flags, arg, argc, argv, &i);
        if (t < 0)
            return 1;
        if (t > 0)
            continue;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            cli->usage(stdout);
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
    if (num_positional != 2) {
        cli->usage(stderr);
        return 1;
    }
    args->input = positional[0];
    args->output = positional[1];
    return CT_CLI_RUN;
}
