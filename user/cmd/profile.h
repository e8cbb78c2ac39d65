/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* profile.h - `hotspot-k profile PID`: one profile, on demand. */
#ifndef HK_USER_PROFILE_CMD_H
#define HK_USER_PROFILE_CMD_H

/* argv[0] is "profile"; the exit status. */
int hk_profile_cmd__main(int argc, char **argv);

#endif /* HK_USER_PROFILE_CMD_H */
