/**
 * Where to put a dot for each country too small for Natural Earth's 110m shapes (the map's): longitude and latitude
 * of its centre, to 0.1°. Worked out once from world-atlas 2.0.2's countries-50m.json (d3-geo's geoCentroid of
 * each country 50m has and 110m leaves out, keyed by ISO 3166-1 alpha-2 via iso-3166), rather than reading that
 * 0.75 MB file and finding the centres on every start (a quarter of a second). Antarctica is left out, as on the map.
 */
export const SMALL_COUNTRY_CENTRES: Readonly<Record<string, readonly [number, number]>> = {
  AD: [1.6, 42.5], AG: [-61.8, 17.3], AI: [-63.1, 18.2], AS: [-170.7, -14.3], AW: [-70.0, 12.5], AX: [20.0, 60.2],
  BB: [-59.6, 13.2], BH: [50.5, 26.0], BL: [-62.8, 17.9], BM: [-64.8, 32.3], CK: [-159.8, -21.2], CV: [-24.0, 16.0],
  CW: [-69.0, 12.2], DM: [-61.4, 15.4], FM: [153.3, 7.5], FO: [-6.9, 62.1], GD: [-61.7, 12.1], GG: [-2.6, 49.5],
  GS: [-36.5, -54.5], GU: [144.8, 13.4], HK: [114.1, 22.4], HM: [73.5, -53.1], IM: [-4.5, 54.2], IO: [72.4, -7.3],
  JE: [-2.1, 49.2], KI: [-167.9, 0.9], KM: [43.7, -11.9], KN: [-62.7, 17.3], KY: [-80.9, 19.4], LC: [-61.0, 13.9],
  LI: [9.5, 47.1], MC: [7.4, 43.8], MF: [-63.1, 18.1], MH: [170.3, 7.0], MO: [113.5, 22.2], MP: [145.6, 15.8],
  MS: [-62.2, 16.7], MT: [14.4, 35.9], MU: [57.6, -20.3], MV: [73.5, 3.7], NF: [167.9, -29.1], NR: [166.9, -0.5],
  NU: [-169.9, -19.0], PF: [-144.8, -14.7], PM: [-56.3, 46.9], PN: [-128.3, -24.4], PW: [134.4, 7.3],
  SC: [55.5, -4.7], SG: [103.8, 1.4], SH: [-9.7, -12.4], SM: [12.5, 43.9], ST: [6.7, 0.4], SX: [-63.1, 18.1],
  TC: [-72.0, 21.8], TO: [-174.8, -20.4], VA: [12.4, 41.9], VC: [-61.2, 13.2], VG: [-64.5, 18.5], VI: [-64.8, 18.0],
  WF: [-177.3, -13.9], WS: [-172.2, -13.8],
};
