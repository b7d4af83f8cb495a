
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n != 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(games)s game in progress": [
      "%(games)s game in progress",
      "%(games)s games in progress"
    ],
    "%(n)s viewer": [
      "%(n)s viewer",
      "%(n)s viewers"
    ],
    "%(p)s still held": "%(p)s still held",
    "%(p)s, you cannot play: draw a tile": "%(p)s, you cannot play: draw a tile",
    "%(p)s, you lead: play any tile": "%(p)s, you lead: play any tile",
    "%(p)s, your decision in the auction": "%(p)s, your decision in the auction",
    "%(p)s, your turn": "%(p)s, your turn",
    "%(p)s, your turn: play a tile": "%(p)s, your turn: play a tile",
    "%(time)s left": "%(time)s left",
    "Accept: your opponent pays you %(paid)s and leads.": "Accept: your opponent pays you %(paid)s and leads.",
    "Computer": "Computer",
    "No bid yet: %(p)s bids at least %(n)s or renounces": "No bid yet: %(p)s bids at least %(n)s or renounces",
    "No bid yet: you bid at least %(n)s or renounce": "No bid yet: you bid at least %(n)s or renounce",
    "Nobody has joined yet.": "Nobody has joined yet.",
    "None of your tiles matches an open end (%(ends)s): draw.": "None of your tiles matches an open end (%(ends)s): draw.",
    "Or raise to %(min)s to %(max)s: accepted, %(min)s costs you %(cost)s and you lead.": "Or raise to %(min)s to %(max)s: accepted, %(min)s costs you %(cost)s and you lead.",
    "Renounce: the jockey leads for free. Or bid %(min)s to %(max)s: accepted, a bid of %(min)s costs you %(cost)s and you lead.": "Renounce: the jockey leads for free. Or bid %(min)s to %(max)s: accepted, a bid of %(min)s costs you %(cost)s and you lead.",
    "Starting the game\u2026": "Starting the game\u2026",
    "easy": "easy",
    "hard": "hard",
    "medium": "medium",
    "on a streak": "on a streak",
    "paused": "paused",
    "starts in %(time)s": "starts in %(time)s",
    "watch": "watch"
  };
  for (const key in newcatalog) {
    django.catalog[key] = newcatalog[key];
  }
  

  if (!django.jsi18n_initialized) {
    django.gettext = function(msgid) {
      const value = django.catalog[msgid];
      if (typeof value === 'undefined') {
        return msgid;
      } else {
        return (typeof value === 'string') ? value : value[0];
      }
    };

    django.ngettext = function(singular, plural, count) {
      const value = django.catalog[singular];
      if (typeof value === 'undefined') {
        return (count == 1) ? singular : plural;
      } else {
        return value.constructor === Array ? value[django.pluralidx(count)] : value;
      }
    };

    django.gettext_noop = function(msgid) { return msgid; };

    django.pgettext = function(context, msgid) {
      let value = django.gettext(context + '\x04' + msgid);
      if (value.includes('\x04')) {
        value = msgid;
      }
      return value;
    };

    django.npgettext = function(context, singular, plural, count) {
      let value = django.ngettext(context + '\x04' + singular, context + '\x04' + plural, count);
      if (value.includes('\x04')) {
        value = django.ngettext(singular, plural, count);
      }
      return value;
    };

    django.interpolate = function(fmt, obj, named) {
      if (named) {
        return fmt.replace(/%\(\w+\)s/g, function(match){return String(obj[match.slice(2,-2)])});
      } else {
        return fmt.replace(/%s/g, function(match){return String(obj.shift())});
      }
    };


    /* formatting library */

    django.formats = {
    "DATETIME_FORMAT": "N j, Y, P",
    "DATETIME_INPUT_FORMATS": [
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%m/%d/%Y %H:%M:%S",
      "%m/%d/%Y %H:%M:%S.%f",
      "%m/%d/%Y %H:%M",
      "%m/%d/%y %H:%M:%S",
      "%m/%d/%y %H:%M:%S.%f",
      "%m/%d/%y %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "N j, Y",
    "DATE_INPUT_FORMATS": [
      "%Y-%m-%d",
      "%m/%d/%Y",
      "%m/%d/%y",
      "%b %d %Y",
      "%b %d, %Y",
      "%d %b %Y",
      "%d %b, %Y",
      "%B %d %Y",
      "%B %d, %Y",
      "%d %B %Y",
      "%d %B, %Y"
    ],
    "DECIMAL_SEPARATOR": ".",
    "FIRST_DAY_OF_WEEK": 0,
    "MONTH_DAY_FORMAT": "F j",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "m/d/Y P",
    "SHORT_DATE_FORMAT": "m/d/Y",
    "THOUSAND_SEPARATOR": ",",
    "TIME_FORMAT": "P",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F Y"
  };

    django.get_format = function(format_type) {
      const value = django.formats[format_type];
      if (typeof value === 'undefined') {
        return format_type;
      } else {
        return value;
      }
    };

    /* add to global namespace */
    globals.pluralidx = django.pluralidx;
    globals.gettext = django.gettext;
    globals.ngettext = django.ngettext;
    globals.gettext_noop = django.gettext_noop;
    globals.pgettext = django.pgettext;
    globals.npgettext = django.npgettext;
    globals.interpolate = django.interpolate;
    globals.get_format = django.get_format;

    django.jsi18n_initialized = true;
  }
};

