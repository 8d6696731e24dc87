import Format from 'typebox/format'
import { isStorableDay, isStorableTime } from './storable-dates.ts'

/*
 * TypeBox's own checks (`Value.Check`: bundles and the dashboard's forms) read `date` and
 * `date-time` as the API's validator does (api/json-validator.ts): the days and times the service
 * can store. Its format registry is one for the process; importing this module sets them.
 */
Format.Set('date', isStorableDay)
Format.Set('date-time', isStorableTime)
