/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/util.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "util.h"

#include <math.h>

#include "tables.h"

/* LAME's init_log_table fills this once per process:
 * log_table[j] = log(1.0f + j / (float) CT_MP3_LOG2_SIZE) / log(2.0f), the double
 * quotient rounded to float. These are those floats, written out. */
const float ct_mp3_log_table[CT_MP3_LOG2_SIZE + 1] = {
    0x0p+0f, 0x1.70f84p-9f, 0x1.709c46p-8f, 0x1.143068p-7f,
    0x1.6fe50cp-7f, 0x1.cb6c3ap-7f, 0x1.136312p-6f, 0x1.40f978p-6f,
    0x1.6e7968p-6f, 0x1.9be2f8p-6f, 0x1.c9363cp-6f, 0x1.f6734ap-6f,
    0x1.11cd1ep-5f, 0x1.28559p-5f, 0x1.3ed30ap-5f, 0x1.554592p-5f,
    0x1.6bad38p-5f, 0x1.820a02p-5f, 0x1.985bfcp-5f, 0x1.aea332p-5f,
    0x1.c4dfacp-5f, 0x1.db1176p-5f, 0x1.f13898p-5f, 0x1.03aa9p-4f,
    0x1.0eb38ap-4f, 0x1.19b74p-4f, 0x1.24b5b8p-4f, 0x1.2faef6p-4f,
    0x1.3aa2fep-4f, 0x1.4591d6p-4f, 0x1.507b84p-4f, 0x1.5b600ap-4f,
    0x1.663f7p-4f, 0x1.7119b8p-4f, 0x1.7beeeap-4f, 0x1.86bf08p-4f,
    0x1.918a16p-4f, 0x1.9c501cp-4f, 0x1.a7111ep-4f, 0x1.b1cd1ep-4f,
    0x1.bc8424p-4f, 0x1.c73632p-4f, 0x1.d1e34ep-4f, 0x1.dc8b7cp-4f,
    0x1.e72ec2p-4f, 0x1.f1cd22p-4f, 0x1.fc66ap-4f, 0x1.037da2p-3f,
    0x1.08c588p-3f, 0x1.0e0b06p-3f, 0x1.134e1cp-3f, 0x1.188eccp-3f,
    0x1.1dcd1ap-3f, 0x1.230906p-3f, 0x1.284294p-3f, 0x1.2d79c6p-3f,
    0x1.32ae9ep-3f, 0x1.37e11ep-3f, 0x1.3d1146p-3f, 0x1.423f1cp-3f,
    0x1.476aap-3f, 0x1.4c93d4p-3f, 0x1.51babap-3f, 0x1.56df54p-3f,
    0x1.5c01a4p-3f, 0x1.6121acp-3f, 0x1.663f7p-3f, 0x1.6b5afp-3f,
    0x1.70742ep-3f, 0x1.758b2cp-3f, 0x1.7a9fecp-3f, 0x1.7fb272p-3f,
    0x1.84c2bep-3f, 0x1.89d0dp-3f, 0x1.8edcaep-3f, 0x1.93e658p-3f,
    0x1.98eddp-3f, 0x1.9df318p-3f, 0x1.a2f632p-3f, 0x1.a7f72p-3f,
    0x1.acf5e2p-3f, 0x1.b1f27ep-3f, 0x1.b6ecf2p-3f, 0x1.bbe54p-3f,
    0x1.c0db6cp-3f, 0x1.c5cf78p-3f, 0x1.cac164p-3f, 0x1.cfb132p-3f,
    0x1.d49ee4p-3f, 0x1.d98a7ep-3f, 0x1.de73fep-3f, 0x1.e35b68p-3f,
    0x1.e840bep-3f, 0x1.ed2402p-3f, 0x1.f20534p-3f, 0x1.f6e456p-3f,
    0x1.fbc16cp-3f, 0x1.004e3ap-2f, 0x1.02babap-2f, 0x1.052636p-2f,
    0x1.0790aep-2f, 0x1.09fa24p-2f, 0x1.0c6298p-2f, 0x1.0eca0ap-2f,
    0x1.11307ep-2f, 0x1.1395f2p-2f, 0x1.15fa68p-2f, 0x1.185dep-2f,
    0x1.1ac05cp-2f, 0x1.1d21dap-2f, 0x1.1f826p-2f, 0x1.21e1eap-2f,
    0x1.24407ap-2f, 0x1.269e12p-2f, 0x1.28fab4p-2f, 0x1.2b565cp-2f,
    0x1.2db11p-2f, 0x1.300acep-2f, 0x1.326396p-2f, 0x1.34bb6cp-2f,
    0x1.37124cp-2f, 0x1.39683cp-2f, 0x1.3bbd3ap-2f, 0x1.3e1146p-2f,
    0x1.406464p-2f, 0x1.42b692p-2f, 0x1.4507dp-2f, 0x1.47582p-2f,
    0x1.49a784p-2f, 0x1.4bf5fcp-2f, 0x1.4e4388p-2f, 0x1.509028p-2f,
    0x1.52dbep-2f, 0x1.5526aep-2f, 0x1.577092p-2f, 0x1.59b98ep-2f,
    0x1.5c01a4p-2f, 0x1.5e48d2p-2f, 0x1.608f1cp-2f, 0x1.62d47ep-2f,
    0x1.6518fep-2f, 0x1.675c9ap-2f, 0x1.699f52p-2f, 0x1.6be128p-2f,
    0x1.6e221cp-2f, 0x1.70623p-2f, 0x1.72a164p-2f, 0x1.74dfb8p-2f,
    0x1.771d2cp-2f, 0x1.7959c2p-2f, 0x1.7b957ap-2f, 0x1.7dd056p-2f,
    0x1.800a56p-2f, 0x1.82437ap-2f, 0x1.847bc4p-2f, 0x1.86b332p-2f,
    0x1.88e9c8p-2f, 0x1.8b1f84p-2f, 0x1.8d5468p-2f, 0x1.8f8874p-2f,
    0x1.91bba8p-2f, 0x1.93ee08p-2f, 0x1.961f9p-2f, 0x1.985044p-2f,
    0x1.9a8024p-2f, 0x1.9caf3p-2f, 0x1.9edd68p-2f, 0x1.a10acep-2f,
    0x1.a3376p-2f, 0x1.a56322p-2f, 0x1.a78e14p-2f, 0x1.a9b836p-2f,
    0x1.abe188p-2f, 0x1.ae0a0ap-2f, 0x1.b031bep-2f, 0x1.b258a6p-2f,
    0x1.b47ecp-2f, 0x1.b6a40cp-2f, 0x1.b8c88ep-2f, 0x1.baec44p-2f,
    0x1.bd0f2ep-2f, 0x1.bf315p-2f, 0x1.c152a6p-2f, 0x1.c37336p-2f,
    0x1.c592fap-2f, 0x1.c7b1f8p-2f, 0x1.c9d03p-2f, 0x1.cbedap-2f,
    0x1.ce0a4ap-2f, 0x1.d0262ep-2f, 0x1.d2414cp-2f, 0x1.d45ba8p-2f,
    0x1.d6753ep-2f, 0x1.d88e12p-2f, 0x1.daa622p-2f, 0x1.dcbd7p-2f,
    0x1.ded3fep-2f, 0x1.e0e9c8p-2f, 0x1.e2fed4p-2f, 0x1.e5131ep-2f,
    0x1.e726aap-2f, 0x1.e93976p-2f, 0x1.eb4b84p-2f, 0x1.ed5cd4p-2f,
    0x1.ef6d68p-2f, 0x1.f17d3ep-2f, 0x1.f38c56p-2f, 0x1.f59ab4p-2f,
    0x1.f7a856p-2f, 0x1.f9b53ep-2f, 0x1.fbc16cp-2f, 0x1.fdccep-2f,
    0x1.ffd79ap-2f, 0x1.00f0cep-1f, 0x1.01f572p-1f, 0x1.02f9bcp-1f,
    0x1.03fda8p-1f, 0x1.05013ap-1f, 0x1.060472p-1f, 0x1.07074ep-1f,
    0x1.0809dp-1f, 0x1.090bf6p-1f, 0x1.0a0dc4p-1f, 0x1.0b0f36p-1f,
    0x1.0c105p-1f, 0x1.0d111p-1f, 0x1.0e1178p-1f, 0x1.0f1186p-1f,
    0x1.10113cp-1f, 0x1.111098p-1f, 0x1.120f9ep-1f, 0x1.130e4ap-1f,
    0x1.140cap-1f, 0x1.150a9ep-1f, 0x1.160844p-1f, 0x1.170594p-1f,
    0x1.18028cp-1f, 0x1.18ff3p-1f, 0x1.19fb7cp-1f, 0x1.1af772p-1f,
    0x1.1bf312p-1f, 0x1.1cee5cp-1f, 0x1.1de952p-1f, 0x1.1ee3f2p-1f,
    0x1.1fde3ep-1f, 0x1.20d834p-1f, 0x1.21d1d6p-1f, 0x1.22cb24p-1f,
    0x1.23c41ep-1f, 0x1.24bcc4p-1f, 0x1.25b516p-1f, 0x1.26ad14p-1f,
    0x1.27a4cp-1f, 0x1.289c1ap-1f, 0x1.29932p-1f, 0x1.2a89d4p-1f,
    0x1.2b8034p-1f, 0x1.2c7644p-1f, 0x1.2d6c02p-1f, 0x1.2e616ep-1f,
    0x1.2f5688p-1f, 0x1.304b5p-1f, 0x1.313fc8p-1f, 0x1.3233fp-1f,
    0x1.3327c6p-1f, 0x1.341b4cp-1f, 0x1.350e84p-1f, 0x1.36016ap-1f,
    0x1.36f4p-1f, 0x1.37e646p-1f, 0x1.38d83ep-1f, 0x1.39c9e6p-1f,
    0x1.3abb4p-1f, 0x1.3bac4ap-1f, 0x1.3c9d06p-1f, 0x1.3d8d74p-1f,
    0x1.3e7d94p-1f, 0x1.3f6d66p-1f, 0x1.405ce8p-1f, 0x1.414c2p-1f,
    0x1.423b08p-1f, 0x1.4329a4p-1f, 0x1.4417f2p-1f, 0x1.4505f4p-1f,
    0x1.45f3aap-1f, 0x1.46e112p-1f, 0x1.47ce3p-1f, 0x1.48bbp-1f,
    0x1.49a784p-1f, 0x1.4a93bep-1f, 0x1.4b7facp-1f, 0x1.4c6b4ep-1f,
    0x1.4d56a6p-1f, 0x1.4e41b2p-1f, 0x1.4f2c74p-1f, 0x1.5016ecp-1f,
    0x1.510118p-1f, 0x1.51eafcp-1f, 0x1.52d494p-1f, 0x1.53bde4p-1f,
    0x1.54a6e8p-1f, 0x1.558fa4p-1f, 0x1.567818p-1f, 0x1.576042p-1f,
    0x1.584822p-1f, 0x1.592fbap-1f, 0x1.5a170ap-1f, 0x1.5afe12p-1f,
    0x1.5be4dp-1f, 0x1.5ccb48p-1f, 0x1.5db178p-1f, 0x1.5e976p-1f,
    0x1.5f7dp-1f, 0x1.606258p-1f, 0x1.61476ap-1f, 0x1.622c34p-1f,
    0x1.6310b8p-1f, 0x1.63f4f6p-1f, 0x1.64d8eep-1f, 0x1.65bc9ep-1f,
    0x1.66a008p-1f, 0x1.67832ep-1f, 0x1.68660cp-1f, 0x1.6948a6p-1f,
    0x1.6a2afap-1f, 0x1.6b0d08p-1f, 0x1.6beed2p-1f, 0x1.6cd056p-1f,
    0x1.6db196p-1f, 0x1.6e9292p-1f, 0x1.6f7348p-1f, 0x1.7053bcp-1f,
    0x1.7133eap-1f, 0x1.7213d4p-1f, 0x1.72f37ap-1f, 0x1.73d2dep-1f,
    0x1.74b1fep-1f, 0x1.7590dap-1f, 0x1.766f72p-1f, 0x1.774dc8p-1f,
    0x1.782bdcp-1f, 0x1.7909acp-1f, 0x1.79e73ap-1f, 0x1.7ac486p-1f,
    0x1.7ba19p-1f, 0x1.7c7e56p-1f, 0x1.7d5adcp-1f, 0x1.7e372p-1f,
    0x1.7f1322p-1f, 0x1.7feee2p-1f, 0x1.80ca62p-1f, 0x1.81a5ap-1f,
    0x1.82809ep-1f, 0x1.835b5ap-1f, 0x1.8435d6p-1f, 0x1.85101p-1f,
    0x1.85ea0cp-1f, 0x1.86c3c6p-1f, 0x1.879d4p-1f, 0x1.88767ap-1f,
    0x1.894f74p-1f, 0x1.8a283p-1f, 0x1.8b00aap-1f, 0x1.8bd8e6p-1f,
    0x1.8cb0e4p-1f, 0x1.8d88a2p-1f, 0x1.8e602p-1f, 0x1.8f376p-1f,
    0x1.900e62p-1f, 0x1.90e524p-1f, 0x1.91bba8p-1f, 0x1.9291eep-1f,
    0x1.9367f6p-1f, 0x1.943dc2p-1f, 0x1.95134ep-1f, 0x1.95e89cp-1f,
    0x1.96bdaep-1f, 0x1.97928p-1f, 0x1.986718p-1f, 0x1.993b7p-1f,
    0x1.9a0f8ep-1f, 0x1.9ae36cp-1f, 0x1.9bb71p-1f, 0x1.9c8a76p-1f,
    0x1.9d5dap-1f, 0x1.9e308ep-1f, 0x1.9f033ep-1f, 0x1.9fd5b4p-1f,
    0x1.a0a7eep-1f, 0x1.a179ecp-1f, 0x1.a24baep-1f, 0x1.a31d34p-1f,
    0x1.a3ee8p-1f, 0x1.a4bf9p-1f, 0x1.a59064p-1f, 0x1.a660fep-1f,
    0x1.a7315ep-1f, 0x1.a80182p-1f, 0x1.a8d16cp-1f, 0x1.a9a11ap-1f,
    0x1.aa709p-1f, 0x1.ab3fcap-1f, 0x1.ac0ecap-1f, 0x1.acdd92p-1f,
    0x1.adac1ep-1f, 0x1.ae7a72p-1f, 0x1.af488cp-1f, 0x1.b0166cp-1f,
    0x1.b0e412p-1f, 0x1.b1b18p-1f, 0x1.b27eb4p-1f, 0x1.b34bbp-1f,
    0x1.b41874p-1f, 0x1.b4e4fep-1f, 0x1.b5b15p-1f, 0x1.b67d68p-1f,
    0x1.b74948p-1f, 0x1.b814f2p-1f, 0x1.b8e062p-1f, 0x1.b9ab9ap-1f,
    0x1.ba769cp-1f, 0x1.bb4164p-1f, 0x1.bc0bf6p-1f, 0x1.bcd65p-1f,
    0x1.bda072p-1f, 0x1.be6a5ep-1f, 0x1.bf3412p-1f, 0x1.bffd8ep-1f,
    0x1.c0c6d4p-1f, 0x1.c18fe4p-1f, 0x1.c258bcp-1f, 0x1.c3215ep-1f,
    0x1.c3e9cap-1f, 0x1.c4b2p-1f, 0x1.c579fep-1f, 0x1.c641c8p-1f,
    0x1.c7095ap-1f, 0x1.c7d0b8p-1f, 0x1.c897ep-1f, 0x1.c95ed2p-1f,
    0x1.ca258ep-1f, 0x1.caec14p-1f, 0x1.cbb266p-1f, 0x1.cc7882p-1f,
    0x1.cd3e6ap-1f, 0x1.ce041cp-1f, 0x1.cec99ap-1f, 0x1.cf8ee2p-1f,
    0x1.d053f6p-1f, 0x1.d118d6p-1f, 0x1.d1dd82p-1f, 0x1.d2a1f8p-1f,
    0x1.d3663cp-1f, 0x1.d42a4ap-1f, 0x1.d4ee24p-1f, 0x1.d5b1ccp-1f,
    0x1.d6753ep-1f, 0x1.d7387ep-1f, 0x1.d7fb8ap-1f, 0x1.d8be62p-1f,
    0x1.d98106p-1f, 0x1.da4378p-1f, 0x1.db05b6p-1f, 0x1.dbc7c2p-1f,
    0x1.dc899ap-1f, 0x1.dd4b4p-1f, 0x1.de0cb4p-1f, 0x1.decdf4p-1f,
    0x1.df8f02p-1f, 0x1.e04fdep-1f, 0x1.e11086p-1f, 0x1.e1d0fep-1f,
    0x1.e29142p-1f, 0x1.e35156p-1f, 0x1.e41136p-1f, 0x1.e4d0e6p-1f,
    0x1.e59064p-1f, 0x1.e64fbp-1f, 0x1.e70ecap-1f, 0x1.e7cdb4p-1f,
    0x1.e88c6cp-1f, 0x1.e94af2p-1f, 0x1.ea0948p-1f, 0x1.eac76cp-1f,
    0x1.eb856p-1f, 0x1.ec4322p-1f, 0x1.ed00b4p-1f, 0x1.edbe16p-1f,
    0x1.ee7b48p-1f, 0x1.ef3848p-1f, 0x1.eff518p-1f, 0x1.f0b1b8p-1f,
    0x1.f16e28p-1f, 0x1.f22a68p-1f, 0x1.f2e678p-1f, 0x1.f3a258p-1f,
    0x1.f45e08p-1f, 0x1.f5198ap-1f, 0x1.f5d4dap-1f, 0x1.f68ffcp-1f,
    0x1.f74afp-1f, 0x1.f805b2p-1f, 0x1.f8c046p-1f, 0x1.f97aacp-1f,
    0x1.fa34e2p-1f, 0x1.faeee8p-1f, 0x1.fba8cp-1f, 0x1.fc626ap-1f,
    0x1.fd1be4p-1f, 0x1.fdd532p-1f, 0x1.fe8e5p-1f, 0x1.ff473ep-1f,
    0x1p+0f,
};

/* The ATH formulas return their minimum for f = -1. */
static float ath_formula_gb(float f, float value, float f_min, float f_max)
{
    float ath;

    /* the following hack allows to ask for the lowest value */
    if (f < -.3)
        f = 3410;

    f /= 1000; /* convert to kHz */
    f = f_min > f ? f_min : f;
    f = f_max < f ? f_max : f;

    ath = 3.640 * pow(f, -0.8)
        - 6.800 * exp(-0.6 * pow(f - 3.4, 2.0))
        + 6.000 * exp(-0.15 * pow(f - 8.7, 2.0))
        + (0.6 + 0.04 * value) * 0.001 * pow(f, 4.0);
    return ath;
}

float ct_mp3_ath_formula(const ct_mp3_config *cfg, float f)
{
    float ath;
    switch (cfg->ATHtype) {
    case 0:
        ath = ath_formula_gb(f, 9, 0.1f, 24.0f);
        break;
    case 1:
        ath = ath_formula_gb(f, -1, 0.1f, 24.0f);
        break;
    case 2:
        ath = ath_formula_gb(f, 0, 0.1f, 24.0f);
        break;
    case 3:
        ath = ath_formula_gb(f, 1, 0.1f, 24.0f) + 6;
        break;
    case 4:
        ath = ath_formula_gb(f, cfg->ATHcurve, 0.1f, 24.0f);
        break;
    case 5:
        ath = ath_formula_gb(f, cfg->ATHcurve, 3.41f, 16.1f);
        break;
    default:
        ath = ath_formula_gb(f, 0, 0.1f, 24.0f);
        break;
    }
    return ath;
}

/* Zwicker: Psychoakustik, 1982; ISBN 3-540-11401-7 */
float ct_mp3_freq2bark(float freq)
{
    if (freq < 0)
        freq = 0;
    freq = freq * 0.001;
    return 13.0 * atan(.76 * freq) + 3.5 * atan(freq * freq / (7.5 * 7.5));
}

int ct_mp3_bitrate_index(int bRate, int version, int samplerate)
{
    int i;
    if (samplerate < 16000)
        version = 2;
    for (i = 0; i <= 14; i++) {
        if (ct_mp3_bitrate_table[version][i] > 0) {
            if (ct_mp3_bitrate_table[version][i] == bRate) {
                return i;
            }
        }
    }
    return -1;
}
